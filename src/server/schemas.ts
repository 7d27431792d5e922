/**
 * Request bodies of `crucible serve`, validated with zod. `/run_code` and `/submit` follow
 * SandboxFusion's models (sandbox/server/sandbox_api.py, sandbox/datasets/types.py):
 * unknown fields are ignored as pydantic does, so a client that sends more still works.
 */
import { z } from 'zod';
import { requestCandidates } from '../domains/request.js';

/** SandboxFusion's language names; the ones this server runs are mapped in languages.ts. */
export const SANDBOX_FUSION_LANGUAGES = [
  'python',
  'pytest',
  'cpp',
  'nodejs',
  'go',
  'go_test',
  'java',
  'junit',
  'php',
  'csharp',
  'bash',
  'typescript',
  'jest',
  'sql',
  'rust',
  'cuda',
  'lua',
  'R',
  'perl',
  'D_ut',
  'ruby',
  'scala',
  'julia',
  'kotlin_script',
  'verilog',
  'python_gpu',
  'lean',
  'swift',
  'racket',
] as const;

/** Also at most the server's --request-timeout, checked per server (app.ts checkSeconds). */
const seconds = (what: string) =>
  z
    .number({ error: `${what} must be a number of seconds` })
    .positive(`${what} must be > 0`)
    .max(3600, `${what} must be at most 3600 seconds`)
    .describe("seconds; at most the server's --request-timeout (a larger value is a 400)");

const languageField = z
  .string({ error: 'language must be a string such as "python", "nodejs" or "typescript"' })
  .refine((l) => (SANDBOX_FUSION_LANGUAGES as readonly string[]).includes(l) || l === 'javascript', {
    error: (issue) =>
      `unknown language ${JSON.stringify(issue.input)}: use one of python, nodejs (or javascript), typescript`,
  });

export const RunCodeRequestSchema = z.object({
  code: z.string({ error: 'code must be a string: the whole program' }),
  language: languageField,
  compile_timeout: seconds('compile_timeout').nullish(),
  run_timeout: seconds('run_timeout').nullish(),
  /** -1 (SandboxFusion's default) means the server's default. */
  memory_limit_MB: z
    .number({ error: 'memory_limit_MB must be a number' })
    .int('memory_limit_MB must be a whole number')
    .min(-1)
    .max(65536)
    .nullish(),
  stdin: z.string({ error: 'stdin must be a string or null' }).nullish(),
  files: z
    .record(z.string(), z.string().nullable(), { error: 'files must map relative paths to base64 strings' })
    .nullish(),
  fetch_files: z.array(z.string(), { error: 'fetch_files must be a list of relative paths' }).max(100).nullish(),
});
export type RunCodeRequest = z.infer<typeof RunCodeRequestSchema>;

const stdioCase = z.object({
  input: z.object({ stdin: z.string({ error: 'each test needs input.stdin (a string)' }) }).passthrough(),
  output: z.object({ stdout: z.string({ error: 'each test needs output.stdout (a string)' }) }).passthrough(),
});

export const SubmitRequestSchema = z.object({
  dataset: z.string({ error: 'dataset must be a string' }),
  id: z.union([z.string(), z.number()], { error: 'id must be a string or a number' }),
  completion: z.string({ error: 'completion must be a string: the model output, fenced code or plain' }),
  config: z
    .object({
      language: languageField.nullish(),
      dataset_type: z.string().nullish(),
      compile_timeout: seconds('config.compile_timeout').nullish(),
      run_timeout: seconds('config.run_timeout').nullish(),
      provided_data: z
        .object(
          {
            test: z
              .array(stdioCase, { error: 'provided_data.test must be a list of {input: {stdin}, output: {stdout}}' })
              .min(1)
              .max(10000),
          },
          {
            error:
              'config.provided_data is required: this server has no dataset database, send the tests with the request',
          },
        )
        .passthrough(),
      extra: z.object({ run_all_cases: z.boolean().nullish() }).passthrough().nullish(),
    })
    .passthrough(),
});
export type SubmitRequest = z.infer<typeof SubmitRequestSchema>;

export const VerifyTestSchema = z.strictObject({
  stdin: z.string({ error: 'tests[].stdin must be a string' }).default(''),
  expected_stdout: z.string({ error: 'tests[].expected_stdout must be a string' }),
  /** Public tests are the "public tests" level of the gated reward; the others (the default) are "hidden". */
  public: z.boolean().default(false),
});

export const VerifyRequestSchema = z.strictObject({
  language: languageField,
  candidates: requestCandidates('program'),
  tests: z
    .array(VerifyTestSchema)
    .min(1, 'tests is empty: send at least one {stdin, expected_stdout}')
    .max(100_000, 'at most 100000 tests per request'),
  /** How stdout is compared with expected_stdout: verl's rule (trailing newlines ignored) by default. */
  compare: z.enum(['exact', 'trailing-newlines', 'whitespace']).default('trailing-newlines'),
  limits: z
    .strictObject({
      time_seconds: seconds('limits.time_seconds').optional(),
      memory_mb: z.number().int().min(16).max(65536).optional(),
      output_bytes: z
        .number()
        .int()
        .min(1)
        .max(64 << 20)
        .optional(),
    })
    .default({}),
  /** Stop a candidate's remaining tests at its first failure (its pass rate then counts what ran). */
  stop_on_first_failure: z.boolean().default(false),
  /** Gated-reward weights per level (parses, loads, runs, public tests, hidden); default equal. */
  weights: z.array(z.number().min(0)).length(5, 'weights needs one entry per level (5)').optional(),
});
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

/** A readable one-line account of what is wrong with a body. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}

/** A test of a function-style task: `entry_point(input)` must equal `output` (source text, as a prompt's example writes them). */
export const FunctionTestSchema = z.strictObject({
  input: z
    .string({ error: 'tests[].input must be a string: the arguments as written inside the call, e.g. "[1, 2], 3"' })
    .max(100_000),
  output: z
    .string({ error: 'tests[].output must be a string: the expected value as a literal, e.g. "3"' })
    .min(1, 'tests[].output is empty: give the expected value as a literal')
    .max(100_000),
  /** Public tests are the "public tests" level of the gated reward; the others (the default) are "hidden". */
  public: z.boolean().default(false),
});

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A function-style task written in the request: a prompt, a function to write, and what checks it. */
export const FunctionTaskSchema = z.strictObject({
  id: z.string().max(200).optional(),
  language: z.enum(['python', 'javascript', 'typescript', 'nodejs'], {
    error: 'task.language must be python, javascript (or nodejs) or typescript',
  }),
  prompt: z.string({ error: 'task.prompt must be a string: what the model was shown' }).max(1_000_000),
  entry_point: z
    .string({ error: 'task.entry_point must be the name of the function to test' })
    .regex(IDENTIFIER, 'task.entry_point must be a function name'),
  /** Text a `{completion}` candidate is appended to (default: the prompt). */
  completion_prefix: z.string().optional(),
  /** A complete right program: expected outputs of generated inputs come from it, and prompt examples are checked against it. */
  reference: z.string().optional(),
  /** Python only: preconditions placed at the start of the reference's body (EvalPlus `contract`); inputs it rejects are not generated. */
  contract: z.string().optional(),
  tests: z.array(FunctionTestSchema).max(10_000, 'at most 10000 tests per task').optional(),
  /** Test code run after the program: HumanEval's `def check(candidate): ...` (called with the entry point), or assertions. */
  test_code: z.string().max(10_000_000).optional(),
});
export type FunctionTask = z.infer<typeof FunctionTaskSchema>;

export const FunctionVerifyRequestSchema = z
  .strictObject({
    task: FunctionTaskSchema.optional(),
    /** One record (a JSON object, or the JSONL line as a string) of HumanEval, HumanEval+, MBPP+, MultiPL-E, HumanEvalPack or QuixBugs. */
    dataset_record: z
      .union(
        [
          z
            .string()
            .min(2)
            .max(64 << 20),
          z.record(z.string(), z.unknown()),
        ],
        { error: 'dataset_record must be one dataset record: a JSON object, or its JSONL line as a string' },
      )
      .optional(),
    candidates: z
      .array(
        z.union(
          [
            z.string(),
            z.strictObject({ id: z.string().max(200).optional(), code: z.string() }),
            z.strictObject({ id: z.string().max(200).optional(), completion: z.string() }),
          ],
          {
            error: 'each candidate is a program (a string), {id, code} or {id, completion} (appended to the prompt)',
          },
        ),
      )
      .min(1, 'candidates is empty: send at least one program')
      .max(1024, 'at most 1024 candidates per request'),
    /** Generated inputs judged against the reference, failures shrunk to a minimal counterexample. */
    augment: z
      .strictObject({
        inputs: z
          .number()
          .int('augment.inputs must be a whole number')
          .min(1)
          .max(1000, 'augment.inputs must be at most 1000')
          .default(100),
        seed: z
          .number()
          .int('augment.seed must be a whole number')
          .min(0)
          .max(2 ** 31 - 1)
          .default(0),
      })
      .optional(),
    /** The prompt's examples (`>>> f(1)` / `2`) as public tests: default on when the task has a reference (examples the reference fails are dropped). */
    prompt_examples: z.boolean().optional(),
    /** Skip shrinking: a failing candidate's minimal_failure is its first failure. */
    stop_on_first_failure: z.boolean().default(false),
    weights: z.array(z.number().min(0)).length(5, 'weights needs one entry per level (5)').optional(),
  })
  .refine((b) => (b.task === undefined) !== (b.dataset_record === undefined), {
    error: 'send exactly one of task (a function-style task) or dataset_record (one line of a dataset)',
  });
export type FunctionVerifyRequest = z.infer<typeof FunctionVerifyRequestSchema>;

/** Whether a /v1/verify body is the function-style form (it names a task). */
export function isFunctionVerifyBody(body: unknown): boolean {
  return (
    typeof body === 'object' && body !== null && !Array.isArray(body) && ('task' in body || 'dataset_record' in body)
  );
}

/** Either form of /v1/verify, for the OpenAPI document. */
export const AnyVerifyRequestSchema = z.union([VerifyRequestSchema, FunctionVerifyRequestSchema]);
