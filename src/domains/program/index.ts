/**
 * The program pack: a whole program in Python, JavaScript or TypeScript, run as its
 * language runs it (`python main.py`) on stdin tests and judged on what it prints —
 * competitive programming (CodeContests, APPS, LiveCodeBench) and /v1/verify's stdin form.
 */
import { codeOf } from '../code/extract.js';
import type { Behaviour, DomainPack, Probe } from '../types.js';
import { prepareStdinChecks, type StdinChecks, type StdinTask } from './checks.js';
import { verifyStdinProgram, type ProgramExecutor, type ProgramReport, type ProgramVerifyOptions } from './verify.js';

export {
  outputMatches,
  prepareStdinChecks,
  testName,
  type OutputComparison,
  type StdinChecks,
  type StdinTask,
  type StdinTest,
} from './checks.js';
export {
  verifyStdinProgram,
  type ProgramExecutor,
  type ProgramReport,
  type ProgramVerifyOptions,
  type TestRun,
} from './verify.js';

export type ProgramPack = Omit<DomainPack<StdinTask, string, StdinChecks>, 'verify'> & {
  verify(checks: StdinChecks, program: string, options?: ProgramVerifyOptions): Promise<ProgramReport>;
};

/** A test's stdin, as a probe. */
const probeOf = (stdin: string): Probe => ({ text: stdin });

/** The pack bound to the executor whose sandboxed workers run its programs. */
export function programPack(executor: ProgramExecutor): ProgramPack {
  return {
    name: 'program',
    extract(task, reply) {
      // A whole program has no entry point to look for: the first fenced block, else the reply.
      const program = codeOf({ language: task.language, entryPoint: '' }, reply);
      return program === undefined ? undefined : { artifact: program, form: 'program' };
    },
    prepare: async (task, options) => prepareStdinChecks(task, options),
    verify: (checks, program, options) => verifyStdinProgram(executor, checks, program, options),
    probes: (checks) => checks.tests.map((t) => probeOf(t.stdin)),
    observe: async (checks, programs, probes): Promise<Behaviour> => ({
      keys: await Promise.all(
        programs.map(async (code) => {
          const keys: (string | null)[] = new Array(probes.length).fill(null);
          const jobs = probes.map((p) => ({
            language: checks.task.language,
            request: { code, stdin: p.text, ...(checks.task.limits ? { limits: checks.task.limits } : {}) },
          }));
          await executor.runBatch(jobs, (i, result) => {
            keys[i] =
              result.status === 'ok'
                ? `=${result.stdout}`
                : result.status === 'no-verdict'
                  ? null
                  : `!${result.status}`;
          });
          return keys;
        }),
      ),
      breaksProperty: programs.map(() => false),
      properties: 0,
    }),
    // Free text has no structure to mutate within a task's domain: the hunt adds nothing.
    neighbours: () => [],
  };
}
