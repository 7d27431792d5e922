import type { SampleResult, Summary } from './evaluate.js';

const percent = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The summary as a small plain-text table for the terminal. */
export function formatSummary(title: string, summary: Summary): string {
  const lines = [
    `${title}: ${summary.tasks} tasks, ${summary.samples} samples, ${summary.seconds}s (${summary.samples_per_second} samples/s)`,
  ];
  const ks = [...new Set(Object.values(summary.pass_at_k).flatMap((byK) => Object.keys(byK)))];
  if (ks.length > 0) {
    const width = Math.max(8, ...Object.keys(summary.pass_at_k).map((s) => s.length + 2));
    lines.push('', 'suite'.padEnd(width) + ks.map((k) => `pass@${k}`.padStart(10)).join(''));
    for (const [suite, byK] of Object.entries(summary.pass_at_k)) {
      lines.push(
        suite.padEnd(width) + ks.map((k) => (byK[k] === undefined ? '-' : percent(byK[k]!)).padStart(10)).join(''),
      );
    }
  }
  const counts = Object.entries(summary.status_counts).filter(([, n]) => n > 0);
  lines.push('', 'status: ' + counts.map(([status, n]) => `${status} ${n}`).join(', '));
  return lines.join('\n');
}

/** The first `perStatus` samples of each status other than pass, for runs too long to list whole. */
export function formatFirstFailures(results: readonly SampleResult[], perStatus: number): string {
  const shown: SampleResult[] = [];
  const counts = new Map<string, number>();
  for (const r of results) {
    if (r.status === 'pass') continue;
    const n = counts.get(r.status) ?? 0;
    counts.set(r.status, n + 1);
    if (n < perStatus) shown.push(r);
  }
  const more = [...counts].filter(([, n]) => n > perStatus).map(([status, n]) => `${n - perStatus} more ${status}`);
  return `the first ${perStatus} samples of each status but pass (every sample is in --json):\n${formatSamples(shown)}${more.length ? `\n(${more.join(', ')})` : ''}`;
}

/** One line per sample: what a newcomer wants to see on a small run. */
export function formatSamples(results: readonly SampleResult[]): string {
  const width = Math.max(...results.map((r) => `${r.task_id} #${r.index}`.length));
  return results
    .map((r) => {
      const name = `${r.task_id} #${r.index}`.padEnd(width);
      const failure = r.first_failure;
      const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
      // Rows of a result come one per line: a sample's line keeps them on one.
      const oneLine = (text: string) => text.replace(/\n/g, ' / ');
      const details = failure
        ? [
            failure.message.split('\n')[0]!.slice(0, 100),
            failure.input !== null ? `input ${clip(failure.input)}` : '',
            failure.expected !== null ? `expected ${clip(oneLine(failure.expected))}` : '',
            failure.actual !== null ? `got ${clip(oneLine(failure.actual))}` : '',
          ].filter(Boolean)
        : [];
      // Type errors never change a status without --strict-types, so they are said here.
      if (r.type_errors?.length)
        details.push(
          `${r.type_errors.length} type error${r.type_errors.length > 1 ? 's' : ''}: ${clip(r.type_errors[0]!)}`,
        );
      if (r.type_check_not_done) details.push(`type check not done: ${clip(r.type_check_not_done)}`);
      const line = `${name}  ${r.status.padEnd(12)}${details.length ? ` ${details.join(' | ')}` : ''}`.trimEnd();
      // A slow generated input is not a failure, but whoever reads the results should know of it.
      const slow = Object.values(r.suites).flatMap((s) => s.slow ?? []);
      const slowLines = slow.map(
        (s) =>
          `\n${' '.repeat(width + 2)}slow, set aside: out of time on ${clip(s.input)} (limit ${s.limit_seconds.toFixed(1)} s, the reference ${s.reference_seconds.toFixed(3)} s), right on ${clip(s.smaller)}`,
      );
      const c = r.counterexample;
      if (!c) return line + slowLines.join('');
      if ('database' in c) {
        const rows = Object.values(c.database).reduce((n, list) => n + list.length, 0);
        const smallestDb = [
          `smallest distinguishing database ${clip(JSON.stringify(c.database))} (${rows} rows)`,
          `expected ${clip(oneLine(c.expected))}`,
          `got ${clip(oneLine(c.actual))}`,
        ];
        return `${line}${slowLines.join('')}\n${' '.repeat(width + 2)}${smallestDb.join(' | ')}`;
      }
      const smallest = [
        `smallest failing generated input ${clip(c.input ?? c.shrunk)}`,
        c.expected !== null ? `expected ${clip(c.expected)}` : '',
        c.actual !== null ? `got ${clip(c.actual)}` : c.message.split('\n')[0]!.slice(0, 80),
      ];
      return `${line}${slowLines.join('')}\n${' '.repeat(width + 2)}${smallest.filter(Boolean).join(' | ')}`;
    })
    .join('\n');
}
