/** Ctrl-C for long commands: the first one aborts `signal` so the work in flight can finish and be reported; a second quits at once. */
export interface Interrupt {
  readonly signal: AbortSignal;
  /** Stops listening for Ctrl-C. */
  dispose(): void;
}

/** `finishing` says what happens after the first Ctrl-C, e.g. "finishing the samples in flight". */
export function interruptOnSigint(finishing: string): Interrupt {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\ncrucible: interrupted; ${finishing} (Ctrl-C again to quit now)\n`);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}
