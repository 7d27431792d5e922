/**
 * Check a program: paste it and a task, and see the verdict, judged by this server's
 * POST /v1/verify (in its sandbox, exactly as an API client's request) and shown with the
 * report's own sample detail: the status, each suite, the first failure with expected against
 * actual, the shrunk counterexample when generated inputs found one.
 */
import { html } from 'htm/preact';
import { useRef, useState } from 'preact/hooks';
import { SampleDetail } from '../components/sample-detail.js';
import { verify } from './api.js';
import { useHeadingFocus } from './focus.js';

/** @typedef {import('../types').Sample} Sample */

const EXAMPLE_TASK = {
  id: 'clip-sum',
  language: 'python',
  prompt: 'def clip_sum(xs: list[int]) -> int:\n    """The sum of the absolute values of xs."""\n',
  entry_point: 'clip_sum',
  tests: [
    { input: '[1, 2]', output: '3', public: true },
    { input: '[-1, 2]', output: '3' },
    { input: '[]', output: '0' },
  ],
};
const EXAMPLE_PROGRAM = 'def clip_sum(xs):\n    return sum(xs)\n';

/**
 * The /v1/verify body for a program and what was pasted as its task: a function-style task
 * (entry_point), stdin tests (tests of {stdin, expected_stdout}, with a language), one dataset
 * record (task_id and prompt), or a whole /v1/verify body (its candidates replaced by the program).
 * @param {string} program
 * @param {unknown} task
 * @returns {Record<string, unknown>}
 */
export function verifyBody(program, task) {
  if (typeof task !== 'object' || task === null || Array.isArray(task))
    throw new Error('the task must be a JSON object');
  const t = /** @type {Record<string, unknown>} */ (task);
  const candidates = [{ id: 'pasted', code: program }];
  if ('candidates' in t || 'task' in t || 'dataset_record' in t) return { ...t, candidates };
  if (typeof t.entry_point === 'string') return { task: t, candidates };
  const tests = t.tests;
  if (
    Array.isArray(tests) &&
    tests.length > 0 &&
    tests.every((x) => x && typeof x === 'object' && 'expected_stdout' in x)
  )
    return {
      language: t.language,
      tests,
      ...Object.fromEntries(
        Object.entries(t).filter(([k]) => ['compare', 'limits', 'stop_on_first_failure'].includes(k)),
      ),
      candidates: [program],
    };
  if (typeof t.task_id === 'string' && typeof t.prompt === 'string') return { dataset_record: t, candidates };
  throw new Error(
    'the task is not one this form knows: give a function-style task (with entry_point), stdin tests ({language, tests: [{stdin, expected_stdout}]}), a dataset record (task_id, prompt, …) or a whole /v1/verify body',
  );
}

/**
 * A /v1/verify verdict as a report sample, for the report's sample detail.
 * @param {any} verdict one of the answer's results
 * @param {string} program
 * @param {string} taskId
 * @returns {Sample}
 */
export function asSample(verdict, program, taskId) {
  /** @type {Record<string, import('../types').SuiteResult>} */
  const suites = Array.isArray(verdict.suites)
    ? Object.fromEntries(
        verdict.suites.map((/** @type {any} */ s) => [
          s.public && !/^public/.test(s.name) ? `${s.name} (public)` : s.name,
          { status: s.status, passed: s.passed, total: s.total },
        ]),
      )
    : { tests: { status: verdict.status, passed: verdict.passed, total: verdict.total } };
  const first = verdict.first_failure;
  const minimal = verdict.minimal_failure;
  const failure = (/** @type {any} */ f) => ({
    input: f.input ?? null,
    expected: f.expected ?? null,
    actual: f.actual ?? null,
    message: [f.suite && `${f.suite}: ${f.status}`, f.message, f.stderr && `stderr: ${f.stderr}`]
      .filter(Boolean)
      .join('\n'),
  });
  return {
    task_id: taskId,
    index: 0,
    status: verdict.status,
    suites,
    first_failure: first ? failure(first) : null,
    // A shrunk input from generated ones: the report shows it as the counterexample.
    ...(minimal && minimal.arguments && minimal !== first
      ? {
          counterexample: {
            input: minimal.input,
            expected: minimal.expected,
            actual: minimal.actual,
            message: minimal.message,
            ...(minimal.original ? { original: minimal.original } : {}),
            ...(typeof minimal.rounds === 'number' ? { rounds: minimal.rounds } : {}),
          },
        }
      : {}),
    ...(verdict.type_errors ? { type_errors: verdict.type_errors } : {}),
    ...(verdict.type_check_not_done ? { type_check_not_done: verdict.type_check_not_done } : {}),
    reward: verdict.reward,
    program,
  };
}

export function CheckPage() {
  const [program, setProgram] = useState('');
  const [task, setTask] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [result, setResult] = useState(
    /** @type {{ sample: Sample, passed: number, total: number, answer: any } | null} */ (null),
  );
  const pending = useRef(/** @type {AbortController | null} */ (null));
  useHeadingFocus(true);

  const submit = async (/** @type {Event} */ event) => {
    event.preventDefault();
    setError(null);
    setResult(null);
    /** @type {Record<string, unknown>} */
    let body;
    try {
      if (!program.trim()) throw new Error('paste a program first');
      /** @type {unknown} */
      let parsed;
      try {
        parsed = JSON.parse(task);
      } catch (e) {
        throw new Error(`the task is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      }
      body = verifyBody(program, parsed);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setBusy(true);
    try {
      const answer = await verify(body, controller.signal);
      const verdict = answer.results?.[0];
      if (!verdict) throw new Error('the server answered without a verdict');
      const taskId =
        answer.summary?.task?.id ??
        (typeof body.task === 'object' && body.task && /** @type {any} */ (body.task).id) ??
        'pasted task';
      setResult({
        sample: asSample(verdict, program, String(taskId)),
        passed: verdict.passed,
        total: verdict.total,
        answer,
      });
    } catch (e) {
      if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
    } finally {
      if (pending.current === controller) {
        pending.current = null;
        setBusy(false);
      }
    }
  };

  const example = () => {
    setProgram(EXAMPLE_PROGRAM);
    setTask(JSON.stringify(EXAMPLE_TASK, null, 2));
    setError(null);
    setResult(null);
  };

  return html`<section class="dash-check" aria-labelledby="check-title">
    <div class="dash-title-line">
      <h1 id="check-title">Check a program</h1>
      <span class="muted small">judged by this server’s <code>POST /v1/verify</code>, in its sandbox</span>
    </div>
    <form class="card dash-form" onSubmit=${submit} aria-describedby="check-help">
      <div class="dash-form-fields">
        <label class="dash-textarea">
          <span>Program</span>
          <textarea
            name="program"
            rows="14"
            spellcheck="false"
            value=${program}
            onInput=${(/** @type {Event} */ e) => setProgram(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}
            placeholder=${'def clip_sum(xs):\n    return sum(abs(x) for x in xs)'}
            data-testid="check-program"
          ></textarea>
        </label>
        <label class="dash-textarea">
          <span>Task (JSON)</span>
          <textarea
            name="task"
            rows="14"
            spellcheck="false"
            value=${task}
            onInput=${(/** @type {Event} */ e) => setTask(/** @type {HTMLTextAreaElement} */ (e.currentTarget).value)}
            placeholder=${'{"language": "python", "prompt": "…", "entry_point": "clip_sum",\n "tests": [{"input": "[1, -2]", "output": "3"}]}'}
            data-testid="check-task"
          ></textarea>
        </label>
      </div>
      <div class="dash-form-actions">
        <button type="submit" class="dash-button primary" disabled=${busy} data-testid="check-submit">
          ${busy ? 'Checking…' : 'Check'}
        </button>
        <button type="button" class="dash-button" onClick=${example}>Fill in an example</button>
      </div>
      <p id="check-help" class="muted small">
        ${'The task is a function-style task ('}<code>language</code>, <code>prompt</code>, <code>entry_point</code>,${' '}
        <code>tests</code>${' of '}<code>{input, output}</code>${'; optionally '}<code>reference</code>${' and '}
        <code>test_code</code>${'), stdin tests ('}<code>{"language", "tests": [{"stdin", "expected_stdout"}]}</code>${'),'}
        ${' one record of a dataset (HumanEval, MBPP+ …), or a whole '}<code>/v1/verify</code>${' body, whose candidates the program replaces.'}
      </p>
    </form>
    <div aria-live="polite" class="dash-verdict-region">
      ${error && html`<p class="notice" role="alert" data-testid="check-error">${error}</p>`}
      ${
        result &&
        html`<section class="card dash-verdict" aria-label="Verdict" data-testid="verdict" data-status=${result.sample.status}>
          <h2>Verdict: ${result.sample.status}, ${result.passed} of ${result.total} tests passed</h2>
          <${SampleDetail} sample=${result.sample} />
        </section>`
      }
    </div>
  </section>`;
}
