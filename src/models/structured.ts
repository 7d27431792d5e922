/**
 * Structured output: the schema goes to the endpoint (json_schema, grammar, JSON mode) and
 * into the prompt, and whatever comes back is parsed and validated here — endpoints and
 * grammar compilers are known to let invalid output through (an `integer` with an exponent,
 * an empty string from a broken grammar).
 */
import { z, type ZodType } from 'zod';
import { ModelConfigError } from './errors.js';
import type { ChatMessage, JsonSchema, StructuredOutput } from './types.js';

export interface OutputValidator {
  readonly jsonSchema: JsonSchema;
  /** The value, or a message naming where and how it fails the schema. */
  check(
    text: string,
  ): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };
}

function isZodSchema(schema: StructuredOutput['schema']): schema is ZodType {
  return typeof (schema as { safeParse?: unknown }).safeParse === 'function';
}

/** Per schema object: converting a schema costs more than the call's own bookkeeping, and strategies ask with the same schema every time. */
const validators = new WeakMap<object, OutputValidator>();

export function createValidator(output: StructuredOutput): OutputValidator {
  let validator = validators.get(output.schema);
  if (!validator) validators.set(output.schema, (validator = newValidator(output)));
  return validator;
}

function newValidator(output: StructuredOutput): OutputValidator {
  let zodSchema: ZodType;
  let jsonSchema: JsonSchema;
  if (isZodSchema(output.schema)) {
    zodSchema = output.schema;
    jsonSchema = z.toJSONSchema(output.schema) as JsonSchema;
  } else {
    jsonSchema = output.schema;
    try {
      zodSchema = z.fromJSONSchema(output.schema as never);
    } catch (error) {
      throw new ModelConfigError(`the output schema cannot be used for validation: ${(error as Error).message}`);
    }
  }
  return {
    jsonSchema,
    check(text) {
      const parsed = parseJsonReply(text);
      if (!parsed.ok) return parsed;
      const result = zodSchema.safeParse(parsed.value);
      if (result.success) return { ok: true, value: result.data };
      const issues = result.error.issues
        .slice(0, 5)
        .map(
          (issue) =>
            `at $${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`,
        );
      return { ok: false, message: `the JSON does not match the schema: ${issues.join('; ')}` };
    },
  };
}

/** JSON from a reply, allowing the code fence many models wrap it in. */
export function parseJsonReply(
  text: string,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string } {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  if (!body) return { ok: false, message: 'the reply is empty, not JSON' };
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, message: `the reply is not valid JSON (${(error as Error).message})` };
  }
}

export function schemaInstruction(validator: OutputValidator): ChatMessage {
  return {
    role: 'system',
    content: `Reply with only a JSON value, no prose and no code fence, that matches this JSON Schema:\n${JSON.stringify(validator.jsonSchema)}`,
  };
}

/** The conversation for the one repair attempt: the bad reply and what is wrong with it. */
export function repairMessages(messages: readonly ChatMessage[], badReply: string, problem: string): ChatMessage[] {
  return [
    ...messages,
    { role: 'assistant', content: badReply },
    { role: 'user', content: `That reply cannot be used: ${problem}. Reply again with only the corrected JSON value.` },
  ];
}
