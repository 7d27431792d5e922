/**
 * `/v1/verify` SQL requests sharing one engine (domains/sql/verify-request.ts `SqlVerifier`, in
 * process, on real sandboxed workers): a task whose preparation is endless — two of its
 * reference's mutants recurse for ever on every generated database — must not hold up another
 * user's request, must stop when its client leaves, and is judged right within its budget.
 * No speed is asserted: each bound is minutes below what the hostile preparation would take
 * (600 runaway mutants at 5 s each on two workers: 26 minutes).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { SqlRunner } from '../src/runtimes/sql-pool.js';
import { SqlVerifyRequestSchema } from '../src/domains/sql/request.js';
import { SqlVerifier } from '../src/domains/sql/verify-request.js';

const runner = new SqlRunner({ workers: 2 });
const verifier = new SqlVerifier({ runner });
after(async () => {
  await verifier.close();
  await runner.close();
});

/** Counts to ten; with AND as OR, or the bound dropped, the recursion never ends. */
const COUNT_TO_TEN = (bound: string) =>
  `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE ${bound}) SELECT count(*) FROM c, t`;
const endless = SqlVerifyRequestSchema.parse({
  domain: 'sql',
  task: {
    task_id: 'hostile/count-to-ten',
    schema: 'CREATE TABLE t (n INTEGER)',
    setup: 'INSERT INTO t VALUES (1), (2), (3);',
    reference: COUNT_TO_TEN('x < 10 AND x > 0'),
  },
  augment: { databases: 100, seed: 0 },
  candidates: [
    { id: 'right', code: COUNT_TO_TEN('x < 10') },
    { id: 'wrong', code: COUNT_TO_TEN('x < 9') },
  ],
});

const oneQuery = SqlVerifyRequestSchema.parse({
  domain: 'sql',
  task: {
    task_id: 'cities/big-texan',
    schema: 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)',
    setup: "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400);",
    reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
  },
  candidates: ["SELECT c.name FROM city c WHERE c.population > 500 AND c.state = 'texas'"],
});

const WAITED = Symbol('still waiting');
/** The promise's value, or WAITED after `seconds`. */
const within = <T>(seconds: number, work: Promise<T>) =>
  Promise.race([work, sleep(seconds * 1000, WAITED, { ref: false })]);

const statusesOf = (response: { results: readonly unknown[] }) =>
  Object.fromEntries((response.results as { id: string; status: string }[]).map((r) => [r.id, r.status]));

describe('SQL requests that share the engine', () => {
  it("another user's one-query request is judged while an endless preparation runs", async () => {
    const hostile = verifier.verify(endless);
    let hostileDone = false;
    void hostile.then(() => (hostileDone = true));
    // Its mutants are queued by now: the reference ran on the generated databases.
    await sleep(1000);
    const other = await within(60, verifier.verify(oneQuery));
    assert.notEqual(other, WAITED, 'the one-query request waited behind the preparation');
    assert.deepEqual(statusesOf(other as Awaited<typeof hostile>), { '0': 'pass' });
    assert.equal(hostileDone, false, 'the one-query request finished first');
    // The endless preparation stops at its first runaway mutant, and its candidates are judged right.
    const judged = await within(120, hostile);
    assert.notEqual(judged, WAITED, 'the preparation ran past its budget');
    const { summary } = judged as Awaited<typeof hostile>;
    assert.deepEqual(statusesOf(judged as Awaited<typeof hostile>), { right: 'pass', wrong: 'fail' });
    assert.match(
      (summary.task as { stopped?: string }).stopped ?? '',
      /mutants were stopped at the first that ran past/,
    );
    // The same task again: its checks are kept, so only the candidates run.
    const before = runner.started;
    const again = await verifier.verify(endless);
    assert.deepEqual(statusesOf(again), { right: 'pass', wrong: 'fail' });
    assert.equal(again.summary.task.cached, true);
    // Preparing runs the reference alone on 300 generated databases; the candidates take 2 x 101 queries and a few to shrink.
    assert.ok(runner.started - before < 300, `the preparation ran again: ${runner.started - before} queries`);
  });

  it('a preparation abandoned by its client stops, and the next request is judged at once', async () => {
    const client = new AbortController();
    const abandoned = verifier.verify({ ...endless, augment: { databases: 100, seed: 1 } }, { signal: client.signal });
    await sleep(1000);
    client.abort();
    const next = await within(60, verifier.verify(oneQuery));
    assert.notEqual(next, WAITED, 'the next request waited for the abandoned preparation');
    assert.deepEqual(statusesOf(next as Awaited<typeof abandoned>), { '0': 'pass' });
    const stopped = await within(60, abandoned);
    assert.notEqual(stopped, WAITED, 'the abandoned request did not end');
    assert.deepEqual(statusesOf(stopped as Awaited<typeof abandoned>), { right: 'no-verdict', wrong: 'no-verdict' });
    // Nothing of it is left waiting, and it starts no more queries.
    const started = runner.started;
    await sleep(1500);
    assert.equal(runner.waiting, 0);
    assert.equal(runner.started, started, 'the abandoned preparation still issues queries');
  });
});
