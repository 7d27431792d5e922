import type { z } from 'zod';

/** Validates a record with zod; the error says where, which task and what is wrong. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
  what: string,
  taskId?: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = value as Record<string, unknown>;
  const id = [taskId, fields.task_id, fields.name].find((v) => typeof v === 'string');
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.join('.') || '(record)';
    const got = issue.path.length === 1 && !Object.hasOwn(fields, String(issue.path[0])) ? ' (field missing)' : '';
    return `${path}: ${issue.message}${got}`;
  });
  throw new Error(`${where}: invalid ${what} record${id ? ` ${JSON.stringify(id)}` : ''}: ${problems.join('; ')}`);
}

export const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
