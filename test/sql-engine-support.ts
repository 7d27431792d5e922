/**
 * What the SQL engines' hostile tests share (test/sql-engine.test.ts: SQLite,
 * test/pg-engine.test.ts: PostgreSQL): running a request on the engine's one-worker runner,
 * checking its status and then that the next ordinary query is judged right, and the worker
 * lifecycle every engine must survive — a worker killed between or during queries, a query
 * abandoned.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SqlRequest, SqlResult, SqlRunner, SqlStatus } from '../src/runtimes/sql-pool.js';

export interface EngineFixture {
  readonly runner: () => SqlRunner;
  /** The databases the ordinary query is checked on after each hostile one (the first is the default). */
  readonly databases: () => readonly SqlRequest['database'][];
  readonly normal: string;
  readonly normalRows: readonly (readonly unknown[])[];
  /** The default time limit of a request (a worker that starts builds the database within it). */
  readonly wallSeconds: number;
  /** A cross join of the inline database's table `n` with itself and ten of its rows: 19,990,000 pairs under `a.x < b.x`. */
  readonly slowCount: string;
  /** A query that runs for longer than any test waits. */
  readonly endless: string;
  /** Where the allow-list refuses, when always the same (PostgreSQL's cursor refuses some statements as they run). */
  readonly refusedIn?: SqlResult['phase'];
}

export type EngineRequest = Omit<SqlRequest, 'database'> & { database?: SqlRequest['database'] };

export const show = (r: SqlResult) => JSON.stringify({ ...r, rows: r.rows.slice(0, 5) }).slice(0, 2000);

export function engineChecks(fixture: EngineFixture) {
  const run = (request: EngineRequest): Promise<SqlResult> =>
    fixture.runner().run({
      database: fixture.databases()[0]!,
      ...request,
      limits: { wallSeconds: fixture.wallSeconds, rows: 1000, bytes: 1 << 20, ...request.limits },
    });

  /** The next ordinary query, on each of the fixture's databases, is judged right. */
  const nextIsRight = async (): Promise<void> => {
    for (const database of fixture.databases()) {
      const next = await run({ database, sql: fixture.normal });
      assert.equal(next.status, 'ok', show(next));
      assert.deepEqual(next.rows, fixture.normalRows, 'the next query in the same runner is judged right');
    }
  };

  const expectStatus = async (request: EngineRequest, status: SqlStatus, check?: (r: SqlResult) => void) => {
    const result = await run(request);
    assert.equal(result.status, status, `${request.sql.slice(0, 120)}: ${show(result)}`);
    check?.(result);
    await nextIsRight();
  };

  const refused = (sql: string, extra: Partial<SqlRequest> = {}) =>
    expectStatus({ sql, ...extra }, 'error', (r) => {
      if (fixture.refusedIn) assert.equal(r.phase, fixture.refusedIn);
      assert.equal(r.refused, true, `refused by the allow-list: ${show(r)}`);
    });

  return { run, nextIsRight, expectStatus, refused };
}

/** Until the process is gone (and reaped): a killed worker may still answer for a moment. */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The worker lifecycle, the same for every engine: `more` adds an engine's own cases to the group. */
export function workerLifecycle(fixture: EngineFixture, more: () => void = () => {}): void {
  const { run, nextIsRight } = engineChecks(fixture);
  describe('workers', () => {
    it('a worker killed between queries is replaced, and the next query answers', async () => {
      await nextIsRight();
      const [pid] = fixture.runner().pids;
      process.kill(pid!, 'SIGKILL');
      await gone(pid!);
      await nextIsRight();
      assert.notDeepEqual(fixture.runner().pids, [pid]);
    });

    it('a worker killed during a query: the query runs again on a new worker and is judged right', async () => {
      await nextIsRight();
      const [pid] = fixture.runner().pids;
      const running = run({ sql: fixture.slowCount, limits: { wallSeconds: 10 } });
      setTimeout(() => process.kill(pid!, 'SIGKILL'), 50);
      const r = await running;
      assert.equal(r.status, 'ok', show(r));
      assert.deepEqual(r.rows, [[19990000]]);
      assert.notDeepEqual(fixture.runner().pids, [pid], 'answered by a new worker');
      await nextIsRight();
    });

    it('an abandoned query is stopped and cancelled; the next answers', async () => {
      const controller = new AbortController();
      const running = fixture
        .runner()
        .run(
          { database: fixture.databases()[0]!, sql: fixture.endless, limits: { wallSeconds: 20 } },
          { signal: controller.signal },
        );
      setTimeout(() => controller.abort(), 100);
      const r = await running;
      assert.equal(r.cancelled, true);
      await nextIsRight();
    });

    more();
  });
}
