/** The SQL pack's entry in the registry (../registry.ts): its task files, its engine, its subject and its scoring. */
import { fileURLToPath } from 'node:url';
import type { PackModule } from '../pack-module.js';
import type { SqlChecks } from './checks.js';
import { isSqlTaskFile, readSqlTasks } from './read-tasks.js';
import { SqlVerifyRequestSchema } from './request.js';
import { BASE, DEFAULT_DATABASES, GENERATED, sqlEngines, type SqlTask } from './task.js';

const STATIC_MESSAGES = {
  equivalent: 'the same query as the reference, normalised',
  different: 'differs from the reference where the result must differ',
  unknown: 'the static judge cannot tell: judge by execution (without --judge static)',
} as const;

export const sqlModule: PackModule<SqlTask, SqlChecks> = {
  name: 'sql',
  taskNoun: 'an SQL task',
  writes: 'query',
  runs: 'queries',
  reportView: fileURLToPath(new URL('./report-view.js', import.meta.url)),
  isTaskFile: isSqlTaskFile,
  readTasks: readSqlTasks,
  // Without samples: each task's reference and its known-equivalent rewrites, which should all pass.
  samplesWithout: {
    what: 'references and their known rewrites',
    of: (tasks) =>
      tasks.flatMap((task) =>
        [task.reference, ...task.equivalents].map((program, index) => ({ taskId: task.id, index, program })),
      ),
  },
  probes: DEFAULT_DATABASES,
  // The reference's results on generated databases would tell the solver the answers.
  withoutOracle: { oracle: false },
  judges: {
    // Execution-free: equivalent passes, different fails, and what the normalisation cannot tell is no verdict.
    async static(task, query) {
      const verdict = (await import('./static-judge.js')).staticJudge(task.reference, query);
      const status = verdict === 'equivalent' ? 'pass' : verdict === 'different' ? 'fail' : 'no-verdict';
      return {
        status,
        failure:
          status === 'pass' ? null : { input: null, expected: null, actual: null, message: STATIC_MESSAGES[verdict] },
      };
    },
  },
  auditJudges: (mutants) => (mutants ? 'references, rewrites, injected bugs' : 'references, rewrites'),
  requests: {
    schema: SqlVerifyRequestSchema,
    open: async (options) => new (await import('./verify-request.js')).SqlVerifier(options),
  },
  async open(options) {
    const [{ SqlRunner }, { sqlPack }, { sqlSubject }] = await Promise.all([
      import('../../runtimes/sql-pool.js'),
      import('./index.js'),
      import('./subject.js'),
    ]);
    const runner = new SqlRunner({
      ...(options.workers ? { workers: options.workers } : {}),
      sandbox: options.sandbox,
    });
    return {
      pack: sqlPack(runner),
      concurrency: 2 * runner.size,
      subject: (task, checks) => sqlSubject(runner, task, checks),
      unusable: (checks) =>
        checks.incomplete
          ? `the sandbox failed while preparing ${checks.task.id}'s checks: ${checks.incomplete}`
          : checks.referenceProblem
            ? `${checks.task.id} cannot be checked: ${checks.referenceProblem}`
            : undefined,
      suites: (checks) => [
        { name: BASE, total: 1 },
        ...(checks.generated.length ? [{ name: GENERATED, total: checks.generated.length }] : []),
      ],
      settings: (tasks) => ({ engine: sqlEngines(tasks), workers: runner.size }),
      augmented: (checks) => ({
        databases: Object.fromEntries([...checks].map(([id, c]) => [id, c.generated.length])),
      }),
      audit: async (tasks, options) => (await import('./audit.js')).auditSql(runner, tasks, options),
      close: () => runner.close(),
    };
  },
};
