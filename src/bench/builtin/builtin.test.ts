import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { after, describe, it } from 'node:test';
import { LANGUAGES, type Language } from '../../core/task.js';
import { STATUSES, type Status, type Verdict } from '../../core/verdict.js';
import { Harness } from '../../domains/code/harness.js';
import { builtinDataset, builtinSamples, builtinTasks, type BuiltinTask } from './index.js';

const PREFIX: Record<Language, string> = { python: 'py', javascript: 'js', typescript: 'ts' };

function tasksOf(language: Language): BuiltinTask[] {
  return builtinTasks.filter((entry) => entry.task.language === language);
}

describe('built-in suite: structure', () => {
  it('has about thirty tasks across the three languages', () => {
    assert.ok(tasksOf('python').length >= 12, 'python tasks');
    assert.ok(tasksOf('javascript').length >= 6, 'javascript tasks');
    assert.ok(tasksOf('typescript').length >= 6, 'typescript tasks');
    assert.ok(builtinTasks.length >= 28 && builtinTasks.length <= 36, `${builtinTasks.length} tasks`);
  });

  it('has unique, well-formed ids', () => {
    const ids = builtinTasks.map((entry) => entry.task.id);
    assert.equal(new Set(ids).size, ids.length, 'duplicate task ids');
    for (const { task } of builtinTasks) {
      assert.match(task.id, new RegExp(`^builtin/${PREFIX[task.language]}/[a-z0-9]+(-[a-z0-9]+)*$`), task.id);
      assert.equal(task.source, 'builtin', task.id);
    }
  });

  it('gives every task a prompt, a reference that completes it, and a base script suite', () => {
    for (const { task } of builtinTasks) {
      assert.equal(task.completionPrefix, task.prompt, `${task.id}: completionPrefix`);
      assert.ok(task.prompt.includes(task.entryPoint), `${task.id}: prompt names ${task.entryPoint}`);
      assert.ok(task.reference?.startsWith(task.prompt), `${task.id}: reference completes the prompt`);
      const names = task.suites.map((suite) => suite.name);
      assert.equal(new Set(names).size, names.length, `${task.id}: duplicate suite names`);
      const base = task.suites.find((suite) => suite.name === 'base');
      assert.ok(base && base.kind === 'script', `${task.id}: base script suite`);
      if (task.language === 'python') assert.equal(base.invoke, `check(${task.entryPoint})`, `${task.id}: invoke`);
      else assert.ok(base.code.includes(`let candidate = ${task.entryPoint};`), `${task.id}: MultiPL-E style test`);
      for (const suite of task.suites) {
        if (suite.kind !== 'io') continue;
        assert.equal(suite.entry, task.entryPoint, `${task.id}/${suite.name}: entry`);
        const inputs: unknown = JSON.parse(suite.inputsJson);
        assert.ok(
          Array.isArray(inputs) && inputs.length > 0 && inputs.every(Array.isArray),
          `${task.id}/${suite.name}: array of argument lists`,
        );
      }
    }
    for (const { task } of tasksOf('python')) {
      assert.ok(
        task.suites.some((suite) => suite.name === 'plus' && suite.kind === 'io'),
        `${task.id}: python tasks have a plus io suite`,
      );
    }
  });

  it('gives every task 2-5 candidates, at least one right and one wrong', () => {
    for (const { task, candidates } of builtinTasks) {
      assert.ok(candidates.length >= 2 && candidates.length <= 5, `${task.id}: ${candidates.length} candidates`);
      const labels = candidates.map((candidate) => candidate.label);
      assert.equal(new Set(labels).size, labels.length, `${task.id}: duplicate labels`);
      assert.ok(
        candidates.some((candidate) => candidate.expected === 'pass'),
        `${task.id}: no passing candidate`,
      );
      assert.ok(
        candidates.some((candidate) => candidate.expected !== 'pass'),
        `${task.id}: no wrong candidate`,
      );
      for (const candidate of candidates) {
        assert.ok(
          STATUSES.includes(candidate.expected) && candidate.expected !== 'no-verdict',
          `${task.id}/${candidate.label}: expected`,
        );
        assert.ok(candidate.why.length > 20, `${task.id}/${candidate.label}: why`);
        assert.notEqual(
          candidate.program,
          task.reference,
          `${task.id}/${candidate.label}: a candidate is not the reference itself`,
        );
      }
      assert.deepEqual(
        task.knownWrong.map((wrong) => wrong.label),
        candidates.filter((candidate) => candidate.expected !== 'pass').map((candidate) => candidate.label),
        `${task.id}: knownWrong`,
      );
    }
  });

  it('covers every kind of verdict, with few timeouts', () => {
    const counts = new Map<Status, number>();
    for (const { candidates } of builtinTasks)
      for (const { expected } of candidates) counts.set(expected, (counts.get(expected) ?? 0) + 1);
    for (const status of ['pass', 'fail', 'error', 'timeout', 'memory', 'output-limit'] as const) {
      assert.ok((counts.get(status) ?? 0) > 0, `no candidate expects ${status}`);
    }
    assert.ok((counts.get('timeout') ?? 0) <= 2, 'each timeout costs two full time limits; keep at most two');
  });

  it('keeps in each task folder only the files load.ts reads', () => {
    // A misnamed file (base.test.ts, plus.jsonc) would be ignored, or picked up by npm test's src/**/*.test.ts.
    const EXT: Record<Language, string> = { python: 'py', javascript: 'js', typescript: 'ts' };
    const visible = (url: URL) => readdirSync(url).filter((name) => name !== '__pycache__');
    for (const { task, candidates } of builtinTasks) {
      const ext = EXT[task.language];
      const dir = new URL(`./tasks/${task.language}/${task.id.split('/')[2]}/`, import.meta.url);
      const allowed = [
        `prompt.${ext}`,
        `reference.${ext}`,
        `base_test.${ext}`,
        'plus.json',
        'task.json',
        'checks.ts',
        'candidates',
      ];
      for (const name of visible(dir)) assert.ok(allowed.includes(name), `${task.id}: unexpected file ${name}`);
      assert.deepEqual(
        visible(new URL('candidates/', dir)).sort(),
        candidates.map((c) => `${c.label}.${ext}`).sort(),
        `${task.id}: candidates/`,
      );
    }
  });

  it('lists every candidate as a sample, indexed by its position in its task', () => {
    const dataset = builtinDataset();
    assert.equal(dataset.name, 'builtin');
    assert.deepEqual(
      dataset.tasks.map((task) => task.id),
      builtinTasks.map((entry) => entry.task.id),
    );
    const samples = builtinSamples();
    assert.equal(
      samples.length,
      builtinTasks.reduce((sum, entry) => sum + entry.candidates.length, 0),
    );
    for (const sample of samples) {
      const entry = builtinTasks.find((candidate) => candidate.task.id === sample.taskId);
      assert.ok(entry, sample.taskId);
      assert.equal(entry.candidates[sample.index]?.program, sample.program, `${sample.taskId}#${sample.index}`);
    }
  });
});

let harness: Harness | undefined;
function sharedHarness(): Harness {
  harness ??= new Harness({ workers: Math.max(2, Math.min(4, availableParallelism())) });
  return harness;
}
after(async () => {
  await harness?.close();
});

/** Why this harness cannot run the language yet (its runtime is missing), or undefined. */
function missingRuntime(language: Language): string | undefined {
  try {
    sharedHarness().runtime(language);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/no runtime for/.test(message)) return message;
    throw error;
  }
}

function describeVerdict(verdict: Verdict): string {
  const suites = verdict.suites
    .map((suite) => `${suite.name}=${suite.status} ${suite.passed}/${suite.total}`)
    .join(', ');
  return `${verdict.status} [${suites}] ${verdict.firstFailure ? JSON.stringify(verdict.firstFailure) : ''}`;
}

for (const language of LANGUAGES) {
  describe(`built-in suite: judging the ${language} tasks`, () => {
    const subtle: string[] = [];
    let judged = 0;

    for (const { task, candidates } of tasksOf(language)) {
      it(task.id, async (t) => {
        const missing = missingRuntime(language);
        if (missing) {
          t.skip(`not validated: ${missing}`);
          return;
        }
        const h = sharedHarness();
        const [reference, ...verdicts] = await Promise.all([
          h.judge(task, task.reference!),
          ...candidates.map((candidate) => h.judge(task, candidate.program)),
        ]);
        judged++;
        const problems: string[] = [];
        for (const suite of task.suites) {
          const outcome = reference!.suites.find((s) => s.name === suite.name);
          if (outcome?.status !== 'pass')
            problems.push(`${task.id} / reference: suite ${suite.name} did not pass: ${describeVerdict(reference!)}`);
        }
        if (reference!.typeErrors?.length)
          problems.push(`${task.id} / reference: type errors ${JSON.stringify(reference!.typeErrors)}`);
        candidates.forEach((candidate, i) => {
          const verdict = verdicts[i]!;
          if (verdict.status !== candidate.expected) {
            problems.push(
              `${task.id} / ${candidate.label}: expected ${candidate.expected}, got ${describeVerdict(verdict)}`,
            );
          }
          const base = verdict.suites.find((s) => s.name === 'base');
          const plus = verdict.suites.find((s) => s.name === 'plus');
          if (candidate.expected !== 'pass' && base?.status === 'pass' && plus && plus.status !== 'pass')
            subtle.push(`${task.id} / ${candidate.label}`);
        });
        if (problems.length > 0) assert.fail(problems.join('\n'));
      });
    }

    it(`has a wrong ${language} candidate that passes base but not plus`, (t) => {
      if (!tasksOf(language).some(({ task }) => task.suites.some((suite) => suite.name === 'plus'))) {
        t.skip('no plus suites');
        return;
      }
      const missing = missingRuntime(language);
      if (missing) {
        t.skip(`not validated: ${missing}`);
        return;
      }
      if (judged < tasksOf(language).length) {
        t.skip('needs every task of the language judged in this run');
        return;
      }
      assert.ok(subtle.length > 0, `no ${language} candidate passed base and failed plus`);
    });
  });
}
