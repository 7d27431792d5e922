/**
 * The contract every domain pack passes (src/domains/README.md), one suite for all, run by
 * each pack's own test file with its fixtures — as hono runs one suite against every router.
 * A gap a pack cannot fill is skipped with its reason, never left out silently.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Checks, DomainPack, PrepareOptions, Probe } from '../../src/domains/types.js';

export interface PackFixture<T, A> {
  readonly name: string;
  readonly task: T;
  readonly right: A;
  /** Wrong on some generated probe or hidden test, right on what a solver sees first. */
  readonly wrong: A;
  /** Does not parse. */
  readonly broken: A;
  /** Never ends: its status says so, and the next artifact is still judged right. */
  readonly hostile: A;
  /** A model's reply holding `right`. */
  readonly reply: string;
  readonly prepare: Omit<PrepareOptions, 'audience' | 'seed'>;
  /** Contract clauses this pack cannot meet yet, each with its reason. */
  readonly skip?: Readonly<Record<string, string>>;
}

export function runPackContract<T, A, C extends Checks<T>, P extends Probe>(
  pack: () => DomainPack<T, A, C, P>,
  fixture: PackFixture<T, A>,
): void {
  describe(`domain pack contract: ${fixture.name}`, () => {
    const clause = (name: string, body: () => Promise<void>) =>
      it(name, fixture.skip?.[name] !== undefined ? { skip: fixture.skip[name] } : {}, body);
    const prepared = (audience: 'solver' | 'scorer', seed = 1) =>
      pack().prepare(fixture.task, { ...fixture.prepare, audience, seed });

    clause('extract reads the artifact from a reply, and nothing from an empty one', async () => {
      assert.deepEqual(pack().extract(fixture.task, fixture.reply)?.artifact, fixture.right);
      assert.equal(pack().extract(fixture.task, '   '), undefined);
    });

    clause('the same seed gives the same checks', async () => {
      const [a, b] = [await prepared('scorer'), await prepared('scorer')];
      assert.equal(a.description, b.description);
      assert.equal(a.count, b.count);
      assert.deepEqual([...a.publicSuites], [...b.publicSuites]);
      assert.ok(a.count > 0, 'the fixture has checks');
    });

    clause('a solver sees no more than a scorer', async () => {
      const [solver, scorer] = [await prepared('solver'), await prepared('scorer')];
      assert.ok(solver.count <= scorer.count, `${solver.description} / ${scorer.description}`);
      for (const name of solver.publicSuites) assert.ok(scorer.publicSuites.has(name), name);
    });

    clause('the right artifact passes with reward 1', async () => {
      const report = await pack().verify(await prepared('scorer'), fixture.right);
      assert.equal(report.passed, true, JSON.stringify(report.failures));
      assert.equal(report.verdict.status, 'pass');
      assert.equal(report.reward.reward, 1);
      assert.deepEqual(report.failures, []);
    });

    clause(
      'a wrong artifact fails with a fact to feed back, the smallest probe shrunk, and a lower reward',
      async () => {
        const report = await pack().verify(await prepared('scorer'), fixture.wrong, { shrink: true });
        assert.equal(report.passed, false);
        assert.equal(report.verdict.status, 'fail');
        assert.ok(report.failures.length > 0);
        assert.ok(
          report.failures.some((f) => f.shrunk),
          `a shrunk fact among ${JSON.stringify(report.failures)}`,
        );
        assert.ok(
          report.reward.reward !== null && report.reward.reward < 1 && report.reward.reward > 0,
          JSON.stringify(report.reward),
        );
      },
    );

    clause('an artifact that does not parse earns nothing', async () => {
      const report = await pack().verify(await prepared('scorer'), fixture.broken);
      assert.equal(report.passed, false);
      assert.equal(report.reward.reward, 0);
      if (report.reward.reward === 0) assert.equal(report.reward.firstFailed, 'parses');
    });

    clause('a hostile artifact gets its status, and the next one is judged right', async () => {
      const checks = await prepared('scorer');
      const hostile = await pack().verify(checks, fixture.hostile);
      assert.equal(hostile.verdict.status, 'timeout');
      assert.equal(hostile.passed, false);
      const next = await pack().verify(checks, fixture.right);
      assert.equal(next.passed, true, JSON.stringify(next.failures));
    });

    // Selection's evidence: what artifacts do side by side, with no reference consulted (a
    // scorer's checks, so that the probes reach where the wrong artifact goes wrong).
    const unjudged = () =>
      pack().prepare(fixture.task, {
        ...fixture.prepare,
        audience: 'scorer',
        seed: 1,
        oracle: false,
        purpose: 'compare',
      });

    clause('observe: the same artifact behaves the same on every probe, a wrong one differently on some', async () => {
      const checks = await unjudged();
      const probes = pack().probes(checks);
      assert.ok(probes.length > 0, 'probes are generated without a reference');
      const behaviour = await pack().observe(checks, [fixture.right, fixture.right, fixture.wrong], probes);
      assert.equal(behaviour.keys.length, 3);
      assert.equal(behaviour.keys[0]!.length, probes.length);
      assert.deepEqual(behaviour.keys[0], behaviour.keys[1]);
      assert.ok(
        behaviour.keys[0]!.some((key) => key !== null),
        'something is known of the right artifact',
      );
      assert.ok(
        behaviour.keys[2]!.some((key, i) => key !== behaviour.keys[0]![i]),
        'the wrong artifact differs on some probe',
      );
    });

    clause('neighbours: new probes near the given ones, the same for the same seed', async () => {
      const checks = await unjudged();
      const probes = pack().probes(checks);
      const seen = new Set(probes.map((p) => p.text));
      const near = probes.slice(0, 3);
      const found = pack().neighbours(checks, near, 5, 7, seen);
      assert.ok(found.length > 0 && found.length <= 5, `${found.length} neighbours`);
      for (const probe of found) assert.ok(!seen.has(probe.text), `${probe.text} was seen`);
      assert.equal(new Set(found.map((p) => p.text)).size, found.length, 'no probe twice');
      assert.deepEqual(
        pack()
          .neighbours(checks, near, 5, 7, seen)
          .map((p) => p.text),
        found.map((p) => p.text),
      );
      assert.deepEqual(pack().neighbours(checks, [], 5, 7, seen), []);
    });
  });
}
