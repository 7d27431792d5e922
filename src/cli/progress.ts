import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** Told of every update of every bar: `label` names the bar (eval, generate, mutants …). */
export type ProgressListener = (label: string, done: number, total: number) => void;

const listeners = new Set<ProgressListener>();

/**
 * Listens to the updates of every bar created in this process (a recorded run writes them to the
 * run store, where the dashboard of `crucible serve` shows them), until the returned function is called.
 */
export function onProgress(listener: ProgressListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A bar on an interactive terminal; otherwise (CI, pipes) a line every few seconds, so
 * logs show that long work is moving without drowning in carriage returns. Listeners
 * (onProgress) are told of every update.
 */
export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const shown = showProgress(label, stream);
  return {
    update(done, total) {
      for (const listener of listeners) listener(label, done, total);
      shown.update(done, total);
    },
    stop: () => shown.stop(),
  };
}

function showProgress(label: string, stream: NodeJS.WriteStream): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {value}/{total} {percentage}% | {rate}/s | eta {eta_formatted}`,
        stream,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    const t0 = performance.now();
    return {
      update(done, total) {
        if (!started) {
          bar.start(total, 0, { rate: '0' });
          started = true;
        }
        const seconds = (performance.now() - t0) / 1000;
        bar.update(done, { rate: seconds > 0 ? (done / seconds).toFixed(1) : '0' });
      },
      stop() {
        if (started) bar.stop();
      },
    };
  }
  let last = 0;
  const t0 = performance.now();
  return {
    update(done, total) {
      const now = performance.now();
      if (done !== 1 && done !== total && now - last < 5000) return; // the first line shows work has started
      last = now;
      const seconds = (now - t0) / 1000;
      stream.write(
        `${label}: ${done}/${total} (${((100 * done) / total).toFixed(0)}%) ${(done / Math.max(seconds, 1e-9)).toFixed(1)}/s\n`,
      );
    },
    stop() {},
  };
}
