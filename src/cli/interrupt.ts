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

/** The parent at start: it may be gone before the server has started. */
const STARTED_BY = process.ppid;

/**
 * Resolves on SIGINT or SIGTERM, or when the process that started this one is gone while
 * started by npm (`npx crucible serve`, `npm run`): npm exits on SIGTERM without passing it
 * on, which left the server running with no parent. Elsewhere a parent may go on purpose
 * (`nohup crucible serve &`), so only npm's children watch for it.
 */
export function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const parent = STARTED_BY;
    const watch = process.env.npm_command
      ? setInterval(() => process.ppid !== parent && done('its parent process is gone'), 500)
      : undefined;
    const onSignal = (signal: NodeJS.Signals) => done(signal);
    function done(why: string) {
      clearInterval(watch);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(why);
    }
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
