/**
 * `POST /v1/verify` for a pack without a request form of its own: `{"domain": NAME, "task":
 * <one task line of the pack>, "candidates": [...], "weights"?}`. The task is read as the pack
 * reads a line (naming no file of this machine), its scorer's checks prepared once and kept
 * for the requests that send the same task, and every candidate judged on them.
 */
import { createHash } from 'node:crypto';
import pMap from 'p-map';
import { z } from 'zod';
import { BadRequestError } from '../core/errors.js';
import type { AnyPackModule, OpenPack, RuntimeOptions } from './pack-module.js';
import {
  identified,
  RequestCandidatesSchema,
  statusCounts,
  stoppedVerdict,
  verdictOnWire,
  WeightsSchema,
  type PackRequests,
  type RequestVerifier,
  type VerifyHooks,
} from './request.js';
import type { Identified } from './subject.js';
import type { Checks } from './types.js';

/** Tasks whose checks are kept, least recently used first out. */
const KEPT_TASKS = 32;
const STOPPED = 'not judged: the request was stopped';

/** The request form of a pack that reads task lines. */
export function lineRequests(module: AnyPackModule): PackRequests {
  const schema = z.strictObject({
    domain: z.literal(module.name),
    task: z.record(z.string(), z.unknown(), { error: `task is one ${module.name} task line, as a JSON object` }),
    candidates: RequestCandidatesSchema,
    weights: WeightsSchema,
  });
  return {
    schema,
    open: async (options) => new LineVerifier(module, schema, options),
  };
}

class LineVerifier implements RequestVerifier {
  private open: Promise<OpenPack> | undefined;
  private readonly kept = new Map<string, Promise<Checks<Identified>>>();

  constructor(
    private readonly module: AnyPackModule,
    private readonly schema: z.ZodType<{
      task: Record<string, unknown>;
      candidates: z.infer<typeof RequestCandidatesSchema>;
      weights?: number[] | undefined;
    }>,
    private readonly options: Partial<RuntimeOptions>,
  ) {}

  async verify(request: unknown, hooks: VerifyHooks = {}) {
    const started = performance.now();
    const body = this.schema.parse(request);
    let task: Identified;
    try {
      task = this.module.requestTaskOf!(body.task, 'task');
    } catch (error) {
      throw new BadRequestError((error as Error).message);
    }
    const candidates = identified(body.candidates);
    // The runtime starts at the first request; one that failed to start is tried again at the next.
    const open = await (this.open ??= this.module.open({ sandbox: 'bwrap', ...this.options }).catch((error) => {
      this.open = undefined;
      throw error;
    }));
    const checks = await this.checks(open, task, body.task);
    const unusable = open.unusable(checks);
    if (unusable) throw new BadRequestError(`the task cannot be judged: ${unusable}`);
    let done = 0;
    hooks.onProgress?.({ done, total: candidates.length });
    const results = await pMap(
      candidates,
      async (candidate, i) => {
        if (hooks.signal?.aborted) return stoppedVerdict(candidate.id, STOPPED);
        const report = await open.pack.verify(checks, candidate.code, {
          ...(hooks.signal ? { signal: hooks.signal } : {}),
          ...(body.weights ? { weights: body.weights } : {}),
        });
        const verdict = verdictOnWire(candidate.id, report, checks.publicSuites);
        hooks.onCandidate?.(verdict, i);
        hooks.onProgress?.({ done: ++done, total: candidates.length });
        return verdict;
      },
      { concurrency: open.concurrency },
    );
    return {
      results,
      summary: {
        candidates: candidates.length,
        task: { id: task.id, domain: this.module.name, checks: checks.description },
        status_counts: statusCounts(results),
        seconds: (performance.now() - started) / 1000,
      },
    };
  }

  /** The scorer's checks of the task, kept by the hash of its line. */
  private checks(open: OpenPack, task: Identified, line: object): Promise<Checks<Identified>> {
    const key = createHash('sha256').update(JSON.stringify(line)).digest('hex');
    let checks = this.kept.get(key);
    if (checks) this.kept.delete(key);
    else checks = open.pack.prepare(task, { audience: 'scorer', seed: 0 });
    this.kept.set(key, checks);
    checks.catch(() => this.kept.delete(key));
    while (this.kept.size > KEPT_TASKS) this.kept.delete(this.kept.keys().next().value!);
    return checks;
  }

  async close(): Promise<void> {
    const open = this.open;
    this.open = undefined;
    this.kept.clear();
    if (open) await (await open).close();
  }
}

/** The request form a pack serves: its own, else its task line's (when it reads one), else none. */
export function requestsOf(module: AnyPackModule): PackRequests | undefined {
  return module.requests ?? (module.requestTaskOf ? lineRequests(module) : undefined);
}
