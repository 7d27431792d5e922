import { z } from 'zod';

/**
 * The shape of a judge's `result` line (PROTOCOL.md). Crucible's own judges write it; a judge
 * that ran a request's test code may have been rewritten by it, so its line is checked against
 * this before any of it is believed: a result that does not fit is no verdict, never a crash.
 */
const status = z.enum(['pass', 'fail', 'error', 'timeout', 'memory', 'output-limit', 'crashed', 'skipped', 'no-verdict']);
const text = z.string().max(1 << 20);
const failure = z.object({ input: text.nullable(), expected: text.nullable(), actual: text.nullable(), message: text });
const suite = z.object({
  name: text,
  status,
  passed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  firstFailure: failure.nullable(),
  inline: z.boolean().optional(),
  failedAt: z.number().int().nonnegative().optional(),
  outputs: z.string().optional(),
  times: z.array(z.number()).optional(),
  elapsed: z.number().optional(),
});
const judgeResult = z.object({
  op: z.literal('result'),
  load: z.object({ ok: z.boolean(), status: status.optional(), message: text.optional() }),
  suites: z.array(suite),
  kill: z.boolean().optional(),
});


/** The result if it has the protocol's shape, else why not. */
export function checkJudgeResult(message: unknown): z.infer<typeof judgeResult> | string {
  const parsed = judgeResult.safeParse(message);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return `the judge wrote a malformed result (${issue ? `${issue.path.join('.') || 'line'}: ${issue.message}` : 'unknown'})`;
}
