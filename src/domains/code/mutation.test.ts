import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Language, Suite, Task } from '../../core/task.js';
import { codePack, mutantJudge } from './index.js';
import { Harness } from './harness.js';
import { checkPythonSyntax } from './mutants/python-helper.js';
import { pythonSites, type PythonToken } from './mutants/python.js';
import { formatMutationReport, generateMutants, scoreMutants, type Mutant } from './mutation.js';

function task(language: Language, prompt: string, body: string, suites: Suite[] = []): Task {
  return {
    id: `t/${language}`,
    language,
    prompt,
    entryPoint: 'f',
    completionPrefix: prompt,
    reference: prompt + body,
    knownWrong: [],
    suites,
    source: 'test',
  };
}

/** A mutant is its reference with one edit, and every character it changes lies inside that edit. */
function assertOneEdit(reference: string, mutant: Mutant): void {
  assert.equal(reference.slice(mutant.start, mutant.end), mutant.original);
  assert.equal(mutant.program, reference.slice(0, mutant.start) + mutant.replacement + reference.slice(mutant.end));
  let first = 0;
  while (reference[first] === mutant.program[first]) first++;
  let tail = 0;
  while (reference.at(-1 - tail) === mutant.program.at(-1 - tail) && tail < reference.length - first) tail++;
  assert.ok(
    first >= mutant.start && reference.length - tail <= mutant.end,
    `${mutant.operator} changes text outside its edit`,
  );
}

const pyPrompt = 'def count_below(xs, k):\n    """Count items below k, e.g. "1 < 2 and True"."""\n';
const pyBody = [
  '    s = "x < 1 and True"  # if a < b and not c: return 1',
  '    n = 0',
  '    for x in xs:',
  '        if x < k and not x == 3:',
  '            n += 1',
  '    return n',
  '',
].join('\n');

test('Python mutants: exactly the documented edits of the solution, one each', async () => {
  const [generated] = await generateMutants([task('python', pyPrompt, pyBody)]);
  const edits = generated!.mutants.map((m) => `${m.operator}: ${m.original} → ${m.replacement}`);
  assert.deepEqual(edits, [
    'constant: 0 → 1',
    'negate-condition: x < k and not x == 3 → not (x < k and not x == 3)',
    'relational: < → <=',
    'logical: and → or',
    'remove-not: not  → ',
    'relational: == → !=',
    'constant: 3 → 4',
    'constant: 3 → 2',
    'constant: 3 → 0',
    'arithmetic: += → -=',
    'constant: 1 → 2',
    'constant: 1 → 0',
    'return: n → None',
  ]);
  const reference = pyPrompt + pyBody;
  for (const mutant of generated!.mutants) {
    // The prompt, the string literal and the comment are never touched, whatever their operators.
    assert.ok(mutant.program.startsWith(pyPrompt));
    assert.ok(mutant.program.includes('s = "x < 1 and True"  # if a < b and not c: return 1\n'));
    assertOneEdit(reference, mutant);
  }
});

test('JavaScript and TypeScript mutants leave strings, templates, comments and types alone', async () => {
  const prompt = '// Sum of items below k; "a < b" is text.\nfunction f(xs: number[], k: 1 | 2): number {\n';
  const body = [
    '  let total = 0; // if (a < b) return 1',
    "  const unit = 'a + 1 < 2';",
    '  for (let i = 0; i < xs.length; i++) {',
    '    if (!(xs[i] >= k) || xs[i] === 7) total += xs[i] * 2;',
    '  }',
    '  const label = `sum < ${k + 1}`;',
    '  return label.length > 0 ? total : -1;',
    '}',
    '',
  ].join('\n');
  for (const language of ['typescript', 'javascript'] as const) {
    const head = language === 'typescript' ? prompt : prompt.replace(': number[], k: 1 | 2): number', ', k)');
    const [generated] = await generateMutants([task(language, head, body)], { max: 1000 });
    const operators = new Set(generated!.mutants.map((m) => m.operator));
    for (const operator of [
      'relational',
      'arithmetic',
      'logical',
      'negate-condition',
      'remove-not',
      'constant',
      'return',
      'index',
    ]) {
      assert.ok(operators.has(operator as Mutant['operator']), `${language}: no ${operator} mutant`);
    }
    for (const mutant of generated!.mutants) {
      assert.ok(mutant.program.startsWith(head), 'the prompt (with its types) is never mutated');
      for (const kept of ['// if (a < b) return 1', "'a + 1 < 2'", '`sum < ${k + 1}`'])
        assert.ok(mutant.program.includes(kept), `${kept} changed`);
      assertOneEdit(head + body, mutant);
    }
    assert.ok(generated!.mutants.some((m) => m.original === '++' && m.replacement === '--'));
  }
});

test('mutants that do not parse are dropped, and counted', async () => {
  // `a+-b` with + → - would read `a--b`: a syntax error, not a mutant.
  const [generated] = await generateMutants([task('javascript', 'function f(a, b) {\n', '  return a+-b;\n}\n')]);
  assert.equal(generated!.invalid, 1);
  assert.ok(generated!.mutants.every((m) => !m.program.includes('a--b')));
  assert.ok(generated!.mutants.some((m) => m.program.includes('return undefined')));
  assert.deepEqual(await checkPythonSyntax(['x = 1\n', 'x = = 1\n', 'def f(:\n']), [true, false, false]);
});

test('mutants are deterministic, capped, and spread over operators', async () => {
  const body =
    '    a = [10, 20, 30, 40, 50, 60, 70, 80, 90]\n    if x > 0 and x < 9:\n        return a[x] + 1\n    return -1\n';
  const t = task('python', 'def f(x):\n', body);
  const [first] = await generateMutants([t], { max: 6 });
  const [again] = await generateMutants([t], { max: 6 });
  const [otherSeed] = await generateMutants([t], { max: 6, seed: 7 });
  assert.equal(first!.mutants.length, 6);
  assert.ok(first!.found > 20);
  assert.deepEqual(again!.mutants, first!.mutants);
  assert.notDeepEqual(
    otherSeed!.mutants.map((m) => m.program),
    first!.mutants.map((m) => m.program),
  );
  // 27 of the edits are constants, yet a cap of 6 takes six different operators.
  assert.equal(new Set(first!.mutants.map((m) => m.operator)).size, 6);
});

test('Python 3.12 f-string parts are one string: nothing inside is mutated', () => {
  const source = 'y = f"{x + 1}" + 2\n';
  const tokens: PythonToken[] = [
    ['NAME', 'y', 0, 1],
    ['OP', '=', 2, 3],
    ['FSTRING_START', 'f"', 4, 6],
    ['OP', '{', 6, 7],
    ['NAME', 'x', 7, 8],
    ['OP', '+', 9, 10],
    ['NUMBER', '1', 11, 12],
    ['OP', '}', 12, 13],
    ['FSTRING_END', '"', 13, 14],
    ['OP', '+', 15, 16],
    ['NUMBER', '2', 17, 18],
    ['NEWLINE', '\n', 18, 19],
    ['ENDMARKER', '', 19, 19],
  ];
  const sites = pythonSites(source, tokens, 0);
  assert.ok(sites.length > 0);
  assert.ok(
    sites.every((site) => site.start >= 14),
    JSON.stringify(sites),
  );
});

test('Python: `if not c` and `if a == b` are not negated again; `is not` and `not in` lose their not', async () => {
  const body =
    '    if not x:\n        return 1\n    if x == 2:\n        return 2\n    if x is not None and x not in (5, 6):\n        return 3\n    return 0\n';
  const [generated] = await generateMutants([task('python', 'def f(x):\n', body)], { max: 1000 });
  const negated = generated!.mutants.filter((m) => m.operator === 'negate-condition').map((m) => m.original);
  assert.deepEqual(negated, ['x is not None and x not in (5, 6)']);
  const notless = generated!.mutants
    .filter((m) => m.operator === 'remove-not')
    .map((m) => m.program.split('\n')[m.line - 1]!.trim());
  assert.deepEqual(notless, ['if x:', 'if x is None and x not in (5, 6):', 'if x is not None and x in (5, 6):']);
});

const harness = new Harness({ workers: 1 });
after(() => harness.close());

test(
  'a weak suite scores lower than a strong one on the same reference, and the report shows a survivor',
  { timeout: 300_000 },
  async () => {
    const prompt = 'def f(xs, lo, hi):\n    """How many items x have lo <= x < hi."""\n';
    const body = '    n = 0\n    for x in xs:\n        if lo <= x and x < hi:\n            n += 1\n    return n\n';
    const weak = {
      ...task('python', prompt, body, [
        { kind: 'script', name: 'base', code: 'def check(c):\n    assert c([], 0, 1) == 0\n', invoke: 'check(f)' },
      ]),
      id: 'weak',
    };
    const inputs = [
      [[1, 2, 3], 1, 3],
      [[0, 5, 9], 0, 9],
      [[4, 4], 4, 5],
      [[2, 7], 3, 6],
      [[3], 0, 3],
      [[-1, 1], -1, 0],
      [[1, 1, 1], 0, 2],
    ];
    const strong = {
      ...task('python', prompt, body, [{ kind: 'io', name: 'plus', entry: 'f', inputsJson: JSON.stringify(inputs) }]),
      id: 'strong',
    };
    const generated = await generateMutants([weak, strong]);
    assert.deepEqual(
      generated[0]!.mutants.map((m) => m.program),
      generated[1]!.mutants.map((m) => m.program),
    );
    const report = await scoreMutants(mutantJudge(codePack(harness)), generated, { max: 30, seed: 0, lanes: 2 });
    const [weakScore, strongScore] = report.tasks;
    assert.equal(weakScore!.judged, weakScore!.mutants);
    assert.equal(strongScore!.score, 1);
    assert.ok(weakScore!.score! < 0.5, `weak suite scored ${weakScore!.score}`);
    assert.equal(weakScore!.survivors.length, weakScore!.judged - weakScore!.killed);
    assert.equal(report.weak_tasks, 1);
    assert.equal(report.mean_score, (weakScore!.score! + 1) / 2);

    const text = formatMutationReport(report).join('\n');
    assert.match(text, /weak tasks \(< 0\.80\): +1/);
    assert.match(text, /equivalent/);
    const survivor = weakScore!.survivors[0]!;
    assert.ok(
      text.includes(`weak  ${weakScore!.score!.toFixed(2)} (${weakScore!.killed}/${weakScore!.judged} killed)`),
      text,
    );
    assert.ok(text.includes(`    @@ line ${survivor.line} @@ ${survivor.operator}`), text);
    assert.ok(!/^ +strong /m.test(text), 'a task that kills everything is not among the weakest');
  },
);
