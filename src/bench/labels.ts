import type { Candidate } from '../core/task.js';
import type { SampleResult } from './evaluate.js';

/** What the authors of recorded samples said about one of them. */
export interface Label {
  readonly passed: boolean;
  readonly source?: string;
  readonly model?: string;
  readonly method?: string;
  readonly testSuite?: string;
}

export interface Disagreement {
  readonly task_id: string;
  readonly index: number;
  readonly label_passed: boolean;
  readonly status: SampleResult['status'];
  readonly explanation: string;
  readonly first_failure: SampleResult['first_failure'];
  readonly model?: string;
  readonly method?: string;
  readonly source?: string;
  readonly program: string;
}

export interface Agreement {
  readonly compared: number;
  readonly agreeing: number;
  readonly rate: number;
  readonly disagreements: readonly Disagreement[];
}

const STANDARD_MODULES = new Set([
  'math',
  're',
  'collections',
  'itertools',
  'functools',
  'heapq',
  'string',
  'random',
  'bisect',
  'sys',
  'hashlib',
  'numpy',
  'np',
  'statistics',
  'fractions',
  'decimal',
  'datetime',
  'typing',
  'List',
  'Tuple',
  'Dict',
  'Optional',
  'Any',
]);

/** Why our verdict and the label differ, as far as the verdict alone can tell. */
function explain(label: Label, result: SampleResult, program: string): string {
  // A label made with other tests (HumanEval+ labels on HumanEval's) may disagree by design.
  const likely = label.testSuite
    ? `the label was made with the test suite "${label.testSuite}": if that is not this dataset's, they may disagree by design (--label-suite keeps one suite's labels)`
    : 'the label is likely wrong';
  const failure = result.first_failure?.message ?? '';
  if (result.status === 'no-verdict') return `no verdict from the sandbox: ${failure}`;
  if (label.passed) {
    if (program.trim() === '' || /^\s*(pass\s*)?$/m.test(program.replace(/^(from|import) .*$/gm, '').trim()))
      return 'labelled as passing but the program is empty (label noise)';
    const undefinedName = /NameError: name '(\w+)' is not defined/.exec(failure)?.[1];
    if (undefinedName && STANDARD_MODULES.has(undefinedName))
      return `uses the module ${undefinedName} without importing it; the labelling harness must have imported it for every program`;
    if (undefinedName)
      return `calls ${undefinedName}, which the program never defines; the labelling harness must have run it next to other code`;
    if (result.status === 'timeout')
      return `labelled as passing; here it exceeds the time limit, which follows the reference (${failure})`;
    return `labelled as passing, but a test fails here: ${failure}${result.first_failure?.input ? ` (last call: ${result.first_failure.input})` : ''}; ${likely}`;
  }
  return `labelled as failing, but every test passes here; ${likely}${label.testSuite ? '' : ' (the labelling run may have failed it on time, environment or code extraction)'}`;
}

export function compareWithLabels(
  candidates: readonly Candidate[],
  labels: readonly Label[],
  results: readonly SampleResult[],
): Agreement {
  const disagreements: Disagreement[] = [];
  let agreeing = 0;
  results.forEach((result, i) => {
    const label = labels[i]!;
    const ours = result.status === 'pass';
    if (result.status !== 'no-verdict' && ours === label.passed) {
      agreeing++;
      return;
    }
    disagreements.push({
      task_id: result.task_id,
      index: result.index,
      label_passed: label.passed,
      status: result.status,
      explanation: explain(label, result, candidates[i]!.program),
      first_failure: result.first_failure,
      ...(label.model ? { model: label.model } : {}),
      ...(label.method ? { method: label.method } : {}),
      ...(label.source ? { source: label.source } : {}),
      program: candidates[i]!.program,
    });
  });
  return { compared: results.length, agreeing, rate: results.length ? agreeing / results.length : 0, disagreements };
}

/** `file`: where the disagreements were written (undefined: none, so nothing was written). */
export function formatAgreement(agreement: Agreement, file: string | undefined): string {
  const passAsFail = agreement.disagreements.filter((d) => d.label_passed).length;
  return [
    `agreement with labels: ${agreement.agreeing}/${agreement.compared} (${(100 * agreement.rate).toFixed(2)}%)`,
    `  labelled pass, judged otherwise: ${passAsFail}`,
    `  labelled fail, judged pass:      ${agreement.disagreements.length - passAsFail}`,
    file ? `  every disagreement, explained:   ${file}` : '  no disagreement: nothing written',
  ].join('\n');
}
