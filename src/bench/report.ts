import type { SampleResult, Summary } from './evaluate.js';

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The summary as a small plain-text table for the terminal. */
export function formatSummary(title: string, summary: Summary): string {
  const lines = [`${title}: ${summary.tasks} tasks, ${summary.samples} samples, ${summary.seconds}s (${summary.samples_per_second} samples/s)`];
  const ks = [...new Set(Object.values(summary.pass_at_k).flatMap((byK) => Object.keys(byK)))];
  if (ks.length > 0) {
    const width = Math.max(8, ...Object.keys(summary.pass_at_k).map((s) => s.length + 2));
    lines.push('', 'suite'.padEnd(width) + ks.map((k) => `pass@${k}`.padStart(10)).join(''));
    for (const [suite, byK] of Object.entries(summary.pass_at_k)) {
      lines.push(suite.padEnd(width) + ks.map((k) => (byK[k] === undefined ? '-' : percent(byK[k]!)).padStart(10)).join(''));
    }
  }
  const counts = Object.entries(summary.status_counts).filter(([, n]) => n > 0);
  lines.push('', 'status: ' + counts.map(([status, n]) => `${status} ${n}`).join(', '));
  return lines.join('\n');
}

/** One line per sample: what a newcomer wants to see on a small run. */
export function formatSamples(results: readonly SampleResult[]): string {
  const width = Math.max(...results.map((r) => `${r.task_id} #${r.index}`.length));
  return results
    .map((r) => {
      const name = `${r.task_id} #${r.index}`.padEnd(width);
      const failure = r.first_failure;
      const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
      const details = failure
        ? [
            failure.message.split('\n')[0]!.slice(0, 100),
            failure.input !== null ? `input ${clip(failure.input)}` : '',
            failure.expected !== null ? `expected ${clip(failure.expected)}` : '',
            failure.actual !== null ? `got ${clip(failure.actual)}` : '',
          ].filter(Boolean)
        : [];
      const line = `${name}  ${r.status.padEnd(12)}${details.length ? ` ${details.join(' | ')}` : ''}`.trimEnd();
      const c = r.counterexample;
      if (!c) return line;
      const smallest = [
        `smallest failing generated input ${clip(c.input ?? c.shrunk)}`,
        c.expected !== null ? `expected ${clip(c.expected)}` : '',
        c.actual !== null ? `got ${clip(c.actual)}` : c.message.split('\n')[0]!.slice(0, 80),
      ];
      return `${line}\n${' '.repeat(width + 2)}${smallest.filter(Boolean).join(' | ')}`;
    })
    .join('\n');
}
