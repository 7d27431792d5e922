/**
 * Runs of the commands that judge a whole dataset (eval, select, calibrate, audit). Each is
 * one row: `strategy` holds the command, `task` the dataset, `model` what was judged, the
 * summary the command's whole JSON document and the headline its figures. These views read
 * only the headline, so `crucible runs` stays quick however large the documents are.
 */
import { COMMAND_RUNS, type CommandRunName, type Run } from './store.js';

export function isCommandRun(run: Pick<Run, 'strategy'>): boolean {
  return (COMMAND_RUNS as readonly string[]).includes(run.strategy);
}

/**
 * The command as a list of runs shows it: `solve repair` for a strategy's run, `agent` for an
 * agent's, the command (and its strategy, for eval --model) for a command's.
 */
export function commandLabel(run: Pick<Run, 'strategy' | 'meta'>): string {
  if (run.strategy === 'agent') return 'agent';
  if (!isCommandRun(run)) return `solve ${run.strategy}`;
  const flags = (run.meta?.flags ?? {}) as { model?: unknown; strategy?: unknown; agent?: unknown };
  if (flags.agent) return `${run.strategy} --agent`;
  return flags.model && typeof flags.strategy === 'string' ? `${run.strategy} ${flags.strategy}` : run.strategy;
}

const percent = (x: unknown, digits = 1) => (typeof x === 'number' ? `${(100 * x).toFixed(digits)}%` : '?');

/** One line of a command run's figures (empty for other runs, and for a command run without figures). */
export function describeResult(run: Pick<Run, 'strategy' | 'headline'>): string {
  const h = run.headline as Record<string, any> | null;
  if (!h || !isCommandRun(run)) return '';
  switch (run.strategy as CommandRunName) {
    case 'eval': {
      const suites = Object.entries((h.pass_at_k ?? {}) as Record<string, Record<string, number>>).map(
        ([suite, byK]) => `${suite} ${percent(byK['1'])}`,
      );
      return [
        `pass@1 ${suites.join(' · ') || '?'}`,
        `${h.samples} samples of ${h.tasks} tasks`,
        ...(h.strategy ? [`coverage ${percent(h.strategy.coverage)}`] : []),
        ...(h.labels ? [`labels agree ${percent(h.labels.agreement)}`] : []),
      ].join(', ');
    }
    case 'select':
      return `answered ${h.answered} of ${h.tasks} tasks${typeof h.threshold === 'number' ? ` (threshold ${h.threshold.toFixed(3)})` : ''}`;
    case 'calibrate':
      return h.threshold === null
        ? `no threshold meets α=${h.alpha} on ${h.calibrationTasks} tasks`
        : `threshold ${Number(h.threshold).toFixed(3)}: answers ${h.answered} of ${h.calibrationTasks} tasks, ${h.wrong} wrong (α=${h.alpha})`;
    case 'audit':
      return [
        `references ${h.references?.passed}/${h.references?.total} pass`,
        `known-wrong ${h.known_wrong?.failed}/${h.known_wrong?.total} fail`,
        `false positives ${percent(h.false_positive_rate, 2)}`,
        ...(h.mutation ? [`mutation score ${percent(h.mutation.mean_score)}`] : []),
      ].join(', ');
  }
}

/** Every figure of the headline, one `path  value` line each (for `crucible show`). */
export function headlineLines(headline: Record<string, unknown>): string[] {
  const figures: Array<[string, string]> = [];
  const walk = (value: unknown, path: string) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
    } else {
      figures.push([
        path,
        typeof value === 'number' && !Number.isInteger(value)
          ? String(Number(value.toFixed(4)))
          : JSON.stringify(value),
      ]);
    }
  };
  walk(headline, '');
  const width = Math.max(0, ...figures.map(([path]) => path.length));
  return figures.map(([path, value]) => `  ${path.padEnd(width)}  ${value}`);
}
