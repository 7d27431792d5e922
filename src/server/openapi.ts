/** The OpenAPI 3.1 document served at /openapi.json; request schemas come from the zod schemas. */
import { z } from 'zod';
import { AdvantagesRequestSchema, GatedRewardRequestSchema } from '../rl/schemas.js';
import type { PackRequests } from '../domains/request.js';
import { AnyVerifyRequestSchema, RunCodeRequestSchema, SubmitRequestSchema } from './schemas.js';

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

const errorResponse = {
  description: "malformed request (or a time limit above the server's --request-timeout): `error` says what to fix",
  content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } } },
};

function post(summary: string, schema: z.ZodType, ok: string, path503 = false) {
  return {
    post: {
      summary,
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(schema) } } },
      responses: {
        '200': { description: ok },
        ...(path503
          ? {
              '503': {
                description: 'the server cannot run this kind of request (no usable sandbox for function-style tasks)',
              },
            }
          : {}),
        '400': errorResponse,
        '401': { description: 'missing or wrong bearer token' },
        '413': { description: 'body larger than the server accepts' },
        '504': {
          description: 'the request took longer than the server allows (retry, or send less); its programs are stopped',
        },
      },
    },
  };
}

export function openApiDocument(
  version: string,
  requestTimeoutSeconds: number,
  packs: readonly { readonly name: string; readonly requests: PackRequests }[] = [],
) {
  const verifyForms = z.union([AnyVerifyRequestSchema, ...packs.map((p) => p.requests.schema)]);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Crucible',
      version,
      description:
        'Verification as a service: SandboxFusion-compatible /run_code and /submit, batched /v1/verify with gated rewards, and RL advantages. ' +
        'Outcomes of a program are HTTP 200; the sandbox failing is SandboxError (/run_code) or no-verdict (/v1/verify), never a verdict. ' +
        `Every request is answered within this server's --request-timeout (${requestTimeoutSeconds} s), waiting for a worker included, or it gets a 504. ` +
        'A time limit in a request (run_timeout, compile_timeout, config.run_timeout, config.compile_timeout, limits.time_seconds) above that is a 400 saying so; it is not clamped. ' +
        'Without one a program gets 10 s. A request abandoned (the client disconnects, or it was answered 504) stops its work: runs not started never start, running programs are killed.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/run_code': post(
        'Run one program with stdin (SandboxFusion RunCodeRequest → RunCodeResponse)',
        RunCodeRequestSchema,
        'RunCodeResponse: status Success | Failed | SandboxError, run_result {status, execution_time, return_code, stdout, stderr}',
      ),
      '/submit': post(
        'Judge a completion against provided stdio tests (SandboxFusion /submit with config.provided_data)',
        SubmitRequestSchema,
        'EvalResult: {id, accepted, extracted_code, extracted_type, tests: [{passed, exec_info, test_info}]}',
      ),
      '/v1/verify': post(
        `Many candidates in one request: a stdin program, a function, or an artifact of a pack named by \`domain\` (${packs.map((p) => p.name).join(', ') || 'none installed'}): ` +
          'SQL sends its task inline {schema, setup, reference}; the others send one task line of the pack as `task`. ' +
          'Without domain, two forms. Stdin/stdout: {language, candidates, tests: [{stdin, expected_stdout, public?}]}. ' +
          'Function-style: {task: {language, prompt, entry_point, reference?, tests?: [{input, output, public?}], test_code?} or dataset_record (one HumanEval / HumanEval+ / MBPP+ / MultiPL-E / HumanEvalPack / QuixBugs record), candidates (code or {completion}), augment?: {inputs, seed}}: ' +
          "the task's suites, the prompt's examples as public tests, generated inputs judged against the reference with failures shrunk. " +
          'With Accept: text/event-stream, SSE events progress, verdict, done (and error for a task that turns out unusable).',
        verifyForms,
        'Stdin form: {results: [{id, status, passed, total, pass_rate, reward, gates, first_failed_level, first_failure, minimal_failure, tests}], summary}. ' +
          'Function form: {results: [{id, status, passed, total, pass_rate, reward, gates, first_failed_level, reason?, first_failure: {suite, status, input, expected, actual, message}, ' +
          'minimal_failure (with arguments, original, rounds when shrunk), suites: [{name, public, status, passed, total}], type_errors?, type_check_not_done?}], summary: {candidates, task: {id, language, source, entry_point, has_reference, suites, examples, generated?, cached}, status_counts, seconds}}. ' +
          'status is pass | fail | error | timeout | memory | output-limit | no-verdict; no-verdict has reward null.',
        true,
      ),
      '/v1/rewards/advantages': post(
        'Group advantages: GRPO, GXPO (cross-language), VCPO (ESS-scaled)',
        AdvantagesRequestSchema,
        'advantages per rollout, in request order',
      ),
      '/v1/rewards/gated': post(
        'Gated reward from level scores (parses → loads → runs → public → hidden)',
        GatedRewardRequestSchema,
        '{reward, passRate, gates, firstFailed} or {reward: null, reason}',
      ),
      '/healthz': {
        get: {
          summary: 'Liveness and load',
          security: [],
          responses: { '200': { description: 'ok' }, '503': { description: 'the executor is unavailable' } },
        },
      },
      '/metrics': {
        get: { summary: 'Prometheus text metrics', responses: { '200': { description: 'text/plain; version=0.0.4' } } },
      },
    },
  };
}
