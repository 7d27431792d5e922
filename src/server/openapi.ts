/** The OpenAPI 3.1 document served at /openapi.json; request schemas come from the zod schemas. */
import { z } from 'zod';
import { AdvantagesRequestSchema, GatedRewardRequestSchema } from '../rl/schemas.js';
import { RunCodeRequestSchema, SubmitRequestSchema, VerifyRequestSchema } from './schemas.js';

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

const errorResponse = { description: 'malformed request: `error` says what to fix', content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } } } };

function post(summary: string, schema: z.ZodType, ok: string) {
  return {
    post: {
      summary,
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(schema) } } },
      responses: {
        '200': { description: ok },
        '400': errorResponse,
        '401': { description: 'missing or wrong bearer token' },
        '413': { description: 'body larger than the server accepts' },
        '504': { description: 'the request took longer than the server allows (retry, or send less)' },
      },
    },
  };
}

export function openApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Crucible',
      version,
      description:
        'Verification as a service: SandboxFusion-compatible /run_code and /submit, batched /v1/verify with gated rewards, and RL advantages. ' +
        'Outcomes of a program are HTTP 200; the sandbox failing is SandboxError (/run_code) or no-verdict (/v1/verify), never a verdict.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/run_code': post('Run one program with stdin (SandboxFusion RunCodeRequest → RunCodeResponse)', RunCodeRequestSchema, 'RunCodeResponse: status Success | Failed | SandboxError, run_result {status, execution_time, return_code, stdout, stderr}'),
      '/submit': post('Judge a completion against provided stdio tests (SandboxFusion /submit with config.provided_data)', SubmitRequestSchema, 'EvalResult: {id, accepted, extracted_code, extracted_type, tests: [{passed, exec_info, test_info}]}'),
      '/v1/verify': post(
        'Many candidates × many stdin/stdout tests; with Accept: text/event-stream, SSE events progress, verdict, done',
        VerifyRequestSchema,
        '{results: [{id, status, passed, total, pass_rate, reward, gates, first_failed_level, first_failure, minimal_failure, tests}], summary}',
      ),
      '/v1/rewards/advantages': post('Group advantages: GRPO, GXPO (cross-language), VCPO (ESS-scaled)', AdvantagesRequestSchema, 'advantages per rollout, in request order'),
      '/v1/rewards/gated': post('Gated reward from level scores (parses → loads → runs → public → hidden)', GatedRewardRequestSchema, '{reward, passRate, gates, firstFailed} or {reward: null, reason}'),
      '/healthz': { get: { summary: 'Liveness and load', security: [], responses: { '200': { description: 'ok' }, '503': { description: 'the executor is unavailable' } } } },
      '/metrics': { get: { summary: 'Prometheus text metrics', responses: { '200': { description: 'text/plain; version=0.0.4' } } } },
    },
  };
}
