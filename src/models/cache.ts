/**
 * Content-addressed response cache: sha256(spec, request, occurrence) → response, one JSON
 * file each under `.crucible/cache/`. The occurrence is how many identical requests this
 * Model made before, so a run that samples the same prompt twice replays both answers in
 * order, and a whole run replays exactly (create one Model per run).
 */
import { hash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import stableStringify from 'safe-stable-stringify';
import { DEFAULT_CACHE_DIR } from '../core/constants.js';
import type { BackendRequest, BackendResponse } from './backend.js';

/** `read-write`: replay hits, record misses. `offline`: replay only; a miss is an error. `refresh`: always call, record. `off`: no cache. */
export type CacheMode = 'read-write' | 'offline' | 'refresh' | 'off';
export const CACHE_MODES: readonly CacheMode[] = ['read-write', 'offline', 'refresh', 'off'];

export { DEFAULT_CACHE_DIR };
const FORMAT_VERSION = 1;

/**
 * JSON with object keys sorted at every level, so equal requests hash equally (the same text
 * as JSON.stringify over key-sorted copies, in half the time: it runs once per model call).
 */
export function canonicalJson(value: unknown): string {
  return stableStringify(value) ?? 'null';
}

/**
 * sha256 of canonicalJson({ v, spec, request, occurrence }), given the request's canonical
 * JSON (the caller has it already: serialising a request twice cost a tenth of a short run's overhead).
 */
export function requestHash(spec: string, canonicalRequest: string, occurrence: number): string {
  // The keys in canonical (sorted) order: occurrence, request, spec, v.
  return hash(
    'sha256',
    `{"occurrence":${occurrence},"request":${canonicalRequest},"spec":${JSON.stringify(spec)},"v":${FORMAT_VERSION}}`,
    'hex',
  );
}

interface CacheEntry {
  readonly version: number;
  readonly hash: string;
  readonly spec: string;
  readonly occurrence: number;
  readonly request: BackendRequest;
  readonly response: BackendResponse;
  readonly recordedAt: string;
}

export class ResponseCache {
  constructor(readonly dir: string = DEFAULT_CACHE_DIR) {}

  private path(hash: string): string {
    return join(this.dir, hash.slice(0, 2), `${hash}.json`);
  }

  async get(hash: string): Promise<BackendResponse | undefined> {
    let text: string;
    try {
      text = await readFile(this.path(hash), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let entry: CacheEntry;
    try {
      entry = JSON.parse(text) as CacheEntry;
    } catch {
      return undefined; // a damaged entry is a miss; the call records it again
    }
    return entry.version === FORMAT_VERSION ? entry.response : undefined;
  }

  async put(
    hash: string,
    spec: string,
    occurrence: number,
    request: BackendRequest,
    response: BackendResponse,
  ): Promise<void> {
    const entry: CacheEntry = {
      version: FORMAT_VERSION,
      hash,
      spec,
      occurrence,
      request,
      response,
      recordedAt: new Date().toISOString(),
    };
    const path = this.path(hash);
    await mkdir(join(this.dir, hash.slice(0, 2)), { recursive: true });
    // Write then rename: a reader never sees half a file, even with concurrent runs.
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temporary, JSON.stringify(entry, null, 1) + '\n');
    await rename(temporary, path);
  }
}
