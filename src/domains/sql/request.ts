/** The body of `POST /v1/verify` with `"domain": "sql"`: one SQL task inline and its candidate queries (verify-request.ts judges it). */
import { z } from 'zod';
import { requestCandidates, WeightsSchema } from '../request.js';

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
  candidates: requestCandidates('query', MAX_SQL),
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
  weights: WeightsSchema,
});
export type SqlVerifyRequest = z.infer<typeof SqlVerifyRequestSchema>;
