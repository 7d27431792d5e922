/**
 * Types that the node workers' JSDoc names (the workers are plain JavaScript, checked by tsc
 * through `// @ts-check`). They describe what crosses between a worker's realm and a
 * candidate's: the wire codec both realms build (wire.cjs), and the functions the worker lends
 * a candidate's node surface (host-bridge.cjs, node-surface.cjs).
 */

declare global {
  // The workers write descriptors `{ __proto__: null, ... }`, so that no accessor a program put
  // on Object.prototype is read as part of one; TypeScript reads `__proto__` there as a property.
  interface PropertyDescriptor {
    __proto__?: null;
  }
}

export type WireErrorKind = 'size' | 'unencodable' | 'opaque' | 'malformed' | 'timeout';

export interface WireError extends Error {
  readonly kind: WireErrorKind;
}

/** A value that could not cross: equal to nothing but itself. */
export interface Opaque {
  /** What it was (its class, `function`, `deep`...). */
  readonly $opaque: string;
  readonly text: string;
}

/** What createWire returns (wire.cjs), in whichever realm it was called. */
export interface Wire {
  encode(x: unknown, strict: boolean, budget?: number): string;
  decode(text: string): unknown;
  decodeParsed(x: unknown): unknown;
  decodeBy(x: unknown, deadline: number): unknown;
  readonly Opaque: new (type: string, text: string) => Opaque;
  readonly WireError: new (kind: WireErrorKind, message: string) => WireError;
}

/**
 * What the worker lends one candidate's node surface (createHostBridge, host-bridge.cjs). Its
 * arguments come from the candidate's realm, so each is converted before use; every function
 * returns primitives or a function compiled in the candidate's context, except `builtin` and
 * `global`, which taint the worker first.
 */
export interface HostBridge {
  hrtime(): bigint;
  now(): number;
  /** JSON text of process.memoryUsage(). */
  memoryUsage(): string;
  /** [read, written] */
  encodeInto(s: unknown, bytes: Uint8Array): [number, number];
  /** '' when the label names no encoding. */
  encodingOf(label: unknown): string;
  /** null when the bytes are not valid in a fatal decoder's encoding. */
  decode(encoding: string, input: unknown, fatal: unknown, ignoreBOM: unknown): string | null;
  atob(s: unknown): string | null;
  btoa(s: unknown): string | null;
  kindOf(id: unknown): 'file' | 'local' | 'refused' | 'builtin';
  refusal(bare: string): string;
  /** The file `id` names from `from`, inside the allowed package folders, or ''. */
  resolve(id: unknown, from: unknown): string;
  /** The module wrapper compiled in the candidate's context, or why not. */
  compile(filename: unknown): ((...args: unknown[]) => unknown) | string;
  readText(filename: unknown): string;
  builtin(bare: string): unknown;
  global(name: string): unknown;
}

/** What nodeSurface returns to the candidate's harness (node-surface.cjs). */
export interface Surface {
  /** The globals it defined. */
  readonly defined: string[];
  /** The getters of node's lazy globals, by name (they are not the program's functions). */
  readonly lazy: { [name: string]: () => unknown };
  /** `{code}` once the program called process.exit. */
  readonly exit: () => { code: unknown } | null;
}

/** The host's handle on a candidate's in-context harness (candidate-worker.cjs): only strings and numbers cross. */
export interface HarnessControl {
  configure(limitsJson: string): void;
  install(host: HostBridge | null, optionsJson: string, namesJson: string): void;
  put(text: string): void;
  stash(value: unknown): void;
  outputBytes(): unknown;
}
