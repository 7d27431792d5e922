/** The code pack: a function (or a whole program) in Python, JavaScript or TypeScript. */
import type { Task } from '../../core/task.js';
import type { MutantJudge } from './mutants/score.js';
import type { Harness } from './harness.js';
import type { DomainPack } from '../types.js';
import { prepareCodeChecks, taskChecks, type CodeChecks, type CodePrepareOptions } from './checks.js';
import { extractProgram } from './extract.js';
import { codeProbes, neighbourProbes, observePrograms, type CodeProbe } from './observe.js';
import { verifyProgram } from './verify.js';

export {
  DEFAULT_PROBES,
  EXAMPLE_PREFIX,
  generatedSummary,
  MODEL_TEST_PREFIX,
  prepareCodeChecks,
  taskChecks,
  withModelTests,
  withoutGeneratedInputs,
  type CodeChecks,
  type CodePrepareOptions,
  type GeneratedSummary,
} from './checks.js';
export { codeOf, definesEntry, extractProgram, type Extracted } from './extract.js';
export { behaviourKey, type CodeProbe } from './observe.js';
export { verifyProgram, type CodeReport } from './verify.js';

export type CodePack = DomainPack<Task, string, CodeChecks, CodeProbe> & {
  prepare(task: Task, options: CodePrepareOptions): Promise<CodeChecks>;
};

/** The pack bound to the harness whose sandboxes judge its programs. */
export function codePack(harness: Harness): CodePack {
  return {
    name: 'code',
    extract(task, reply) {
      const found = extractProgram(task, reply);
      return found && { artifact: found.program, form: found.form };
    },
    prepare: (task, options) => prepareCodeChecks(harness, task, options),
    verify: (checks, program, options) => verifyProgram(harness, checks, program, options),
    probes: codeProbes,
    observe: (checks, programs, probes) => observePrograms(harness, checks, programs, probes),
    neighbours: neighbourProbes,
  };
}

/** Judges a mutant of a task's reference on the task's own suites, as eval scores a sample. */
export function mutantJudge(pack: CodePack): MutantJudge {
  return async (task, program) => (await pack.verify(taskChecks(task), program)).verdict.status;
}
