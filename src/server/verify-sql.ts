/**
 * `POST /v1/verify` with `"domain": "sql"`: candidate queries for one SQL task (its schema and
 * setup SQL, its reference), judged by the SQL pack on the task's database and, with
 * `augment`, on generated ones. This file translates the request and renders each report on
 * the wire; the gated reward is parses → executes → base → generated. The engine's workers
 * start on the first SQL request.
 */
import pMap from 'p-map';
import { z } from 'zod';
import { BadRequestError } from '../core/errors.js';
import { sqlPack, type SqlReport, type SqlTask } from '../domains/sql/index.js';
import { SqlRunner, type SqlRunnerOptions } from '../runtimes/sql-pool.js';
import type { VerifyProgress } from './verify.js';

const MAX_SQL = 1 << 20;

export const SqlVerifyRequestSchema = z.strictObject({
  domain: z.literal('sql'),
  task: z.strictObject({
    task_id: z.string().max(200).default('request'),
    schema: z
      .string()
      .min(1, 'task.schema is empty: send the CREATE statements')
      .max(16 << 20),
    setup: z
      .string()
      .max(64 << 20)
      .default(''),
    question: z.string().max(MAX_SQL).default(''),
    reference: z.string().min(1, 'task.reference is empty: send the query that answers the question').max(MAX_SQL),
    // PostgreSQL runs a task's setup as the engine's superuser (PGlite has no other session user): not for a request's SQL.
    dialect: z
      .literal('sqlite', {
        error: 'task.dialect: only sqlite over HTTP (a PostgreSQL setup would run as the superuser)',
      })
      .default('sqlite'),
  }),
  candidates: z
    .array(
      z.union(
        [
          z.string().max(MAX_SQL),
          z.strictObject({ id: z.string().max(200).optional(), code: z.string().max(MAX_SQL) }),
        ],
        {
          error: 'each candidate is a query (a string) or {id, code}',
        },
      ),
    )
    .min(1, 'candidates is empty: send at least one query')
    .max(1024, 'at most 1024 candidates per request'),
  /** Databases generated from the schema (test-suite accuracy); a difference is shrunk to the fewest rows. */
  augment: z
    .strictObject({
      databases: z.number().int().min(1).max(100, 'augment.databases must be at most 100').default(12),
      seed: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .default(0),
    })
    .optional(),
  weights: z.array(z.number().min(0)).length(5, 'weights needs one entry per level (5)').optional(),
});
export type SqlVerifyRequest = z.infer<typeof SqlVerifyRequestSchema>;

/** Whether a /v1/verify body is the SQL form. */
export function isSqlVerifyBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { domain?: unknown }).domain === 'sql';
}

export class SqlVerifier {
  private runner: SqlRunner | undefined;

  constructor(private readonly options: SqlRunnerOptions = {}) {}

  async verify(
    body: SqlVerifyRequest,
    hooks: {
      signal?: AbortSignal;
      onProgress?: (p: VerifyProgress) => void;
      onCandidate?: (v: unknown, index: number) => void;
    } = {},
  ) {
    const started = performance.now();
    this.runner ??= new SqlRunner(this.options);
    const pack = sqlPack(this.runner);
    const task: SqlTask = {
      id: body.task.task_id,
      dialect: body.task.dialect,
      database: { kind: 'inline', schema: body.task.schema, setup: body.task.setup },
      question: body.task.question,
      reference: body.task.reference,
      equivalents: [],
      source: 'request',
    };
    const checks = await pack.prepare(task, {
      audience: 'scorer',
      seed: body.augment?.seed ?? 0,
      probes: body.augment?.databases ?? 0,
    });
    if (checks.referenceProblem !== undefined)
      throw new SqlVerifyError(`the task cannot be judged: ${checks.referenceProblem}`);
    const candidates = body.candidates.map((c, i) =>
      typeof c === 'string' ? { id: String(i), code: c } : { id: c.id ?? String(i), code: c.code },
    );
    let done = 0;
    hooks.onProgress?.({ done, total: candidates.length });
    const results = await pMap(
      candidates,
      async (candidate, i) => {
        const report = await pack.verify(checks, candidate.code, {
          shrink: body.augment !== undefined,
          ...(hooks.signal ? { signal: hooks.signal } : {}),
          ...(body.weights ? { weights: body.weights } : {}),
        });
        const verdict = wire(candidate.id, report, checks.publicSuites);
        hooks.onCandidate?.(verdict, i);
        hooks.onProgress?.({ done: ++done, total: candidates.length });
        return verdict;
      },
      { concurrency: 2 * this.runner.size },
    );
    const counts: Record<string, number> = {};
    for (const v of results) counts[v.status] = (counts[v.status] ?? 0) + 1;
    return {
      results,
      summary: {
        candidates: candidates.length,
        task: {
          id: task.id,
          checks: checks.description,
          generated_databases: checks.generated.length,
          ...(checks.incomplete ? { incomplete: checks.incomplete } : {}),
        },
        status_counts: counts,
        seconds: (performance.now() - started) / 1000,
      },
    };
  }

  async close(): Promise<void> {
    await this.runner?.close();
    this.runner = undefined;
  }
}

/** The task itself cannot be judged (its reference does not run on its database): a 400. */
export class SqlVerifyError extends BadRequestError {}

function wire(id: string, report: SqlReport, publicSuites: ReadonlySet<string>) {
  const { verdict, reward } = report;
  const first = verdict.suites.find((s) => s.status !== 'pass');
  const failure = first?.firstFailure ? { suite: first.name, status: first.status, ...first.firstFailure } : null;
  const passed = verdict.suites.reduce((n, s) => n + s.passed, 0);
  const total = verdict.suites.reduce((n, s) => n + s.total, 0);
  const common = {
    id,
    status: verdict.status,
    passed,
    total,
    suites: verdict.suites.map((s) => ({
      name: s.name,
      public: publicSuites.has(s.name),
      status: s.status,
      passed: s.passed,
      total: s.total,
    })),
    first_failure: failure,
    minimal_failure: report.counterexample ?? failure,
  };
  if (reward.reward === null)
    return { ...common, pass_rate: null, reward: null, gates: null, first_failed_level: null, reason: reward.reason };
  return {
    ...common,
    pass_rate: total ? passed / total : null,
    reward: reward.reward,
    gates: { ...reward.gates },
    first_failed_level: reward.firstFailed,
  };
}
