/**
 * The SQL engine's places given out in turns between lanes (runtimes/sql/turns.ts): one
 * caller's long line does not hold up another's single request, a lane's requests keep their
 * order, and a request whose signal aborts leaves without running. In process, on promises
 * the test resolves itself (no clock); then a preparation's budget on the real engine.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { prepareSqlChecks, sqlPack, type SqlTask } from '../src/domains/sql/index.js';
import { SqlRunner } from '../src/runtimes/sql-pool.js';
import { Turns } from '../src/runtimes/sql/turns.js';

/** Work that ends when the test says: its name is logged when it starts. */
function gated(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => (log.push(name), done), finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('turns between lanes', () => {
  it("a lane's hundred requests hold up another lane's one by a single request per place", async () => {
    const turns = new Turns(1);
    const log: string[] = [];
    const busy = { lane: 'preparation' };
    const other = { lane: 'request' };
    const many = Array.from({ length: 100 }, (_, i) => gated(log, `p${i}`));
    const running = many.map((g) => turns.take(busy, undefined, g.work));
    const one = gated(log, 'r0');
    const waiting = turns.take(other, undefined, one.work);
    assert.equal(turns.waiting, 100, 'one of the hundred runs, the rest and the other lane wait');
    many[0]!.finish();
    await settle();
    assert.deepEqual(log, ['p0', 'r0'], 'the other lane goes next');
    one.finish();
    await waiting;
    for (const g of many) g.finish();
    await Promise.all(running);
    assert.deepEqual(
      log.slice(2),
      many.slice(1).map((_, i) => `p${i + 1}`),
      "a lane's requests keep their order",
    );
  });

  it('a request whose signal aborts leaves its line without running; the places are all given back', async () => {
    const turns = new Turns(2);
    const log: string[] = [];
    const lane = {};
    const first = [gated(log, 'a'), gated(log, 'b')];
    const running = first.map((g) => turns.take(lane, undefined, g.work));
    const leaving = new AbortController();
    const left = turns.take(lane, leaving.signal, gated(log, 'left').work);
    const stays = gated(log, 'stays');
    const staying = turns.take({}, undefined, stays.work);
    leaving.abort();
    assert.equal(await left, undefined);
    assert.equal(turns.waiting, 1);
    first[0]!.finish();
    await settle();
    stays.finish();
    first[1]!.finish();
    await Promise.all([...running, staying]);
    assert.deepEqual(log, ['a', 'b', 'stays']);
    // Both places are free again: two new requests start at once.
    const again = [gated(log, 'c'), gated(log, 'd')];
    const next = again.map((g) => turns.take({}, undefined, g.work));
    assert.deepEqual(log.slice(-2), ['c', 'd']);
    again.forEach((g) => g.finish());
    await Promise.all(next);
  });
});

describe("a preparation's budget (real engine)", () => {
  const runner = new SqlRunner({ workers: 2 });
  after(() => runner.close());
  const task: SqlTask = {
    id: 'cities/big-texan',
    dialect: 'sqlite',
    database: {
      kind: 'inline',
      schema: 'CREATE TABLE city (name TEXT PRIMARY KEY, state TEXT NOT NULL, population INTEGER)',
      setup: "INSERT INTO city VALUES ('austin', 'texas', 950), ('dallas', 'texas', 1300), ('tulsa', 'oklahoma', 400);",
    },
    question: 'Which Texan cities have more than 500 people?',
    reference: "SELECT name FROM city WHERE state = 'texas' AND population > 500",
    equivalents: [],
    source: 'test',
  };

  it('spent after its first query, it stops and says so; what it holds still judges right', async () => {
    const checks = await prepareSqlChecks(runner, task, {
      audience: 'scorer',
      seed: 0,
      probes: 12,
      querySeconds: 1e-9,
    });
    assert.match(checks.stopped ?? '', /stopped at its budget of 1e-9 engine seconds/);
    assert.equal(checks.incomplete, undefined, 'a budget spent is not a sandbox failure: the checks are kept');
    assert.ok(checks.base, checks.description);
    const pack = sqlPack(runner);
    assert.equal(
      (await pack.verify(checks, "SELECT name FROM city WHERE population > 500 AND state = 'texas'")).passed,
      true,
    );
    assert.equal((await pack.verify(checks, 'SELECT name FROM city WHERE population > 1000')).passed, false);
    // Without a budget, the same task prepares in full.
    const full = await prepareSqlChecks(runner, task, { audience: 'scorer', seed: 0, probes: 12 });
    assert.equal(full.stopped, undefined);
    assert.equal(full.generated.length, 12);
  });
});
