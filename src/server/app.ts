import { Hono, type Context } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { CrucibleError, HTTP_STATUS } from '../core/errors.js';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { computeAdvantages } from '../rl/advantages.js';
import { gatedReward } from '../rl/gated-reward.js';
import { GatedRewardRequestSchema } from '../rl/schemas.js';
import type { Executor } from '../runtimes/executor.js';
import { crossSiteGuard } from './cross-site.js';
import { createDashboard, isDashboardPath, type Dashboard } from './dashboard.js';
import type { Metrics } from './metrics.js';
import { openApiDocument } from './openapi.js';
import { runCode, submit } from './sandbox-fusion.js';
import {
  describeIssues,
  FunctionVerifyRequestSchema,
  isFunctionVerifyBody,
  RunCodeRequestSchema,
  SubmitRequestSchema,
  VerifyRequestSchema,
} from './schemas.js';
import { PackVerifiers } from './pack-verifiers.js';
import { verify, type VerifyProgress } from './verify.js';
import { TaskVerifier } from './verify-task.js';

export interface AppOptions {
  readonly executor: Executor;
  readonly metrics: Metrics;
  /** Bearer token required on every route but /healthz and /openapi.json (the dashboard's also take its session cookie); none = no auth. */
  readonly token?: string | undefined;
  /**
   * Without a token: the Host names the server answers to besides localhost and loopback
   * addresses (its --host and --allowed-host values); pages of other sites are refused (cross-site.ts).
   */
  readonly allowedHosts?: readonly string[];
  /** Largest request body in bytes. */
  readonly maxBodyBytes: number;
  /** Longest a request may take (seconds) before it is answered 504 (clients such as verl retry 504). */
  readonly requestTimeoutSeconds: number;
  readonly version: string;
  /**
   * Function-style /v1/verify (tasks, dataset records): its shared Harness. The caller owns
   * it and closes it on shutdown (startServer does); without one, the app makes its own.
   */
  readonly tasks?: TaskVerifier;
  /** /v1/verify with `"domain": NAME`: the packs' verifiers (the caller closes them; without them, the app opens the built-in packs'). */
  readonly packs?: PackVerifiers;
  /** The dashboard at `/` (the caller closes it; without one, the app makes one with no run store). */
  readonly dashboard?: Dashboard;
}

/** A 4xx with a message that says what to fix. */
function badRequest(message: string, status: 400 | 413 | 415 = 400): never {
  throw new HTTPException(status, { message });
}

async function jsonBody(c: Context): Promise<unknown> {
  return (await jsonBodyText(c)).value;
}

/**
 * The parsed body and its text (function-style /v1/verify reads dataset records from the text,
 * keeping floats as written). The body must say it is JSON: a page can send text/plain (even
 * `text/plain; x=json`) or no Content-Type to any server without asking first, but not
 * application/json.
 */
async function jsonBodyText(c: Context): Promise<{ value: unknown; text: string }> {
  const type = c.req.header('content-type');
  if (type?.split(';')[0]!.trim().toLowerCase() !== 'application/json')
    badRequest(
      `send the JSON body with Content-Type: application/json (${type ? `got ${type.slice(0, 100)}` : 'the request had no Content-Type'}; curl: -H 'Content-Type: application/json')`,
      415,
    );
  const text = await c.req.text();
  if (!text.trim()) badRequest('the request body is empty: send a JSON object');
  try {
    return { value: JSON.parse(text), text };
  } catch (error) {
    badRequest(`the body is not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) badRequest(describeIssues(result.error));
  return result.data;
}

/**
 * Races `work` against the request time limit; past it the answer is 504. The signal given
 * to `work` aborts then, and as soon as the client goes away (`client`: the request's own
 * signal), so that work nobody will read stops holding workers: its queued runs never
 * start and its running programs are stopped.
 */
async function withinTime<T>(
  seconds: number,
  client: AbortSignal,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const expiry = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new HTTPException(504, {
          message: `the request took longer than the server's limit of ${seconds}s: send fewer tests per request, or raise --request-timeout`,
        }),
      );
      expiry.abort();
    }, seconds * 1000);
  });
  try {
    return await Promise.race([work(AbortSignal.any([client, expiry.signal])), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Time limits a request sets must fit in the request's own (--request-timeout): a program
 * allowed longer could only end in a 504, so the request is refused at once, saying so
 * (not clamped: a shorter limit than asked would turn slow right answers into timeouts).
 */
function checkSeconds(limit: number, fields: Record<string, number | null | undefined>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'number' && value > limit) {
      badRequest(
        `${name} is ${value} s, more than this server can honour: it answers every request within ${limit} s (its --request-timeout). ` +
          `Send ${name} of at most ${limit}, or start crucible serve with a larger --request-timeout.`,
      );
    }
  }
}

export function createApp(options: AppOptions): Hono {
  const { executor, metrics } = options;
  const tasks = options.tasks ?? new TaskVerifier({ metrics });
  const packs = options.packs ?? new PackVerifiers();
  const dashboard = options.dashboard ?? createDashboard({ token: options.token });
  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof HTTPException) return c.json({ error: error.message }, error.status);
    if (error instanceof CrucibleError) return c.json({ error: error.message }, HTTP_STATUS[error.code]);
    if (error instanceof z.ZodError) return c.json({ error: describeIssues(error) }, 400);
    process.stderr.write(`crucible serve: ${error instanceof Error ? error.stack : String(error)}\n`);
    return c.json({ error: 'internal error: the server failed; this is a bug in Crucible, not in your request' }, 500);
  });
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${c.req.path}: see /openapi.json` }, 404));

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // 499 (nginx's "client closed request"): the client left before its answer was ready.
    metrics.recordRequest(
      c.req.routePath || c.req.path,
      c.req.raw.signal.aborted ? 499 : c.res.status,
      (performance.now() - started) / 1000,
    );
  });
  // Without a token, only this machine's own clients: no rebound Host, no other site's page.
  if (!options.token) app.use('*', crossSiteGuard(options.allowedHosts ?? []));
  // The dashboard's pages: its session cookie as well as the bearer header (dashboard-auth.ts).
  app.use('*', async (c, next) => (isDashboardPath(c.req.path) ? dashboard.guard(c, next) : next()));
  if (options.token) {
    const guard = bearerAuth({
      token: options.token,
      noAuthenticationHeader: {
        message: { error: 'send Authorization: Bearer <token> (the token given to crucible serve)' },
      },
    });
    app.use('*', async (c, next) => {
      const path = c.req.path;
      if (path === '/healthz' || path === '/openapi.json' || isDashboardPath(path)) return next();
      // The dashboard's check form judges a program through /v1/verify itself, with its session.
      if (path === '/v1/verify' && c.req.method === 'POST' && dashboard.fromOwnPage(c)) return next();
      return guard(c, next);
    });
  }
  app.use(
    '*',
    bodyLimit({
      maxSize: options.maxBodyBytes,
      onError: (c) =>
        c.json(
          { error: `the body is larger than ${options.maxBodyBytes} bytes: split the batch, or raise --max-body-mb` },
          413,
        ),
    }),
  );

  app.get('/healthz', async (c) => {
    const problem = await executor.health();
    const load = await executor.load();
    return c.json(
      {
        status: problem ? 'unavailable' : 'ok',
        ...(problem ? { problem } : {}),
        version: options.version,
        executor: executor.kind,
        ...load,
      },
      problem ? 503 : 200,
    );
  });
  app.get('/v1/ping', (c) => c.text('pong'));
  app.get('/metrics', async (c) =>
    c.text(metrics.render(await executor.load()), 200, { 'Content-Type': 'text/plain; version=0.0.4' }),
  );
  app.get('/openapi.json', (c) =>
    c.json(openApiDocument(options.version, options.requestTimeoutSeconds, packs.forms())),
  );

  app.post('/run_code', async (c) => {
    const body = parse(RunCodeRequestSchema, await jsonBody(c));
    checkSeconds(options.requestTimeoutSeconds, {
      run_timeout: body.run_timeout,
      compile_timeout: body.compile_timeout,
    });
    const limit = Math.min(options.requestTimeoutSeconds, (body.run_timeout ?? 10) + (body.compile_timeout ?? 10) + 30);
    return c.json(await withinTime(limit, c.req.raw.signal, (signal) => runCode(executor, body, signal)));
  });

  app.post('/submit', async (c) => {
    const body = parse(SubmitRequestSchema, await jsonBody(c));
    checkSeconds(options.requestTimeoutSeconds, {
      'config.run_timeout': body.config.run_timeout,
      'config.compile_timeout': body.config.compile_timeout,
    });
    return c.json(
      await withinTime(options.requestTimeoutSeconds, c.req.raw.signal, (signal) => submit(executor, body, signal)),
    );
  });

  app.post('/v1/verify', async (c) => {
    const { value, text } = await jsonBodyText(c);
    type Hooks = { signal: AbortSignal; onProgress: (p: VerifyProgress) => void; onCandidate: (v: unknown) => void };
    let run: (hooks: Partial<Hooks> & { signal: AbortSignal }) => Promise<{ summary: object }>;
    const domain = typeof value === 'object' && value !== null ? (value as { domain?: unknown }).domain : undefined;
    if (domain !== undefined) {
      if (typeof domain !== 'string') badRequest('domain is the name of a pack (a string)');
      const { requests, verifier } = await packs.verifierFor(domain);
      const body = parse(requests.schema, value);
      run = (hooks) => verifier.verify(body, hooks);
    } else if (isFunctionVerifyBody(value)) {
      const body = parse(FunctionVerifyRequestSchema, value);
      tasks.check(body, text);
      try {
        tasks.getHarness();
      } catch (error) {
        throw new HTTPException(503, {
          message: `function-style tasks cannot be judged on this server: ${(error as Error).message.slice(0, 500)}`,
        });
      }
      run = (hooks) => tasks.verify(body, text, hooks);
    } else {
      const body = parse(VerifyRequestSchema, value);
      checkSeconds(options.requestTimeoutSeconds, { 'limits.time_seconds': body.limits.time_seconds });
      run = (hooks) => verify(executor, body, hooks);
    }
    const wantsStream =
      (c.req.header('accept') ?? '').includes('text/event-stream') || c.req.query('stream') === 'true';
    if (!wantsStream)
      return c.json(await withinTime(options.requestTimeoutSeconds, c.req.raw.signal, (signal) => run({ signal })));
    // Progress at most every 200 ms; each candidate's verdict as soon as it is complete.
    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      // Past the time limit, or once the client is gone, the rest of the work is abandoned.
      const client = c.req.raw.signal;
      const gone = () => controller.abort();
      client.addEventListener('abort', gone, { once: true });
      if (client.aborted) controller.abort();
      stream.onAbort(gone);
      const timer = setTimeout(() => controller.abort(), options.requestTimeoutSeconds * 1000);
      let lastProgress = 0;
      const pending: Promise<void>[] = [];
      const send = (event: string, data: unknown) =>
        pending.push(stream.writeSSE({ event, data: JSON.stringify(data) }));
      try {
        const result = await run({
          signal: controller.signal,
          onProgress: (p) => {
            const now = performance.now();
            if (now - lastProgress >= 200 || p.done === p.total) {
              lastProgress = now;
              send('progress', p);
            }
          },
          onCandidate: (v) => send('verdict', v),
        });
        send('done', controller.signal.aborted ? { ...result.summary, interrupted: true } : result.summary);
      } catch (error) {
        // The stream has started: a request problem found late (a task that cannot be read) is an error event.
        send('error', {
          error:
            error instanceof CrucibleError
              ? error.message
              : 'internal error: the server failed; this is a bug in Crucible, not in your request',
        });
        if (!(error instanceof CrucibleError))
          process.stderr.write(`crucible serve: ${error instanceof Error ? error.stack : String(error)}\n`);
      } finally {
        clearTimeout(timer);
        client.removeEventListener('abort', gone);
        await Promise.allSettled(pending);
      }
    });
  });

  app.route('/', dashboard.routes);

  app.post('/v1/rewards/advantages', async (c) => c.json(computeAdvantages(await jsonBody(c))));

  app.post('/v1/rewards/gated', async (c) => {
    const body = parse(GatedRewardRequestSchema, await jsonBody(c));
    return c.json(gatedReward(body.levels, body.weights));
  });

  return app;
}
