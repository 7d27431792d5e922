/** node-llama-cpp is optional (its binaries are large): import it only when a gguf model is used. */
import { LocalRuntimeMissingError } from '../errors.js';

export type NodeLlamaCpp = typeof import('node-llama-cpp');

let loading: Promise<NodeLlamaCpp> | undefined;

export function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  loading ??= import('node-llama-cpp').catch((error: unknown) => {
    loading = undefined;
    throw new LocalRuntimeMissingError(error);
  });
  return loading;
}
