import { readFileSync, readdirSync } from 'node:fs';

/** Resident memory (bytes) of every descendant of `root` (not `root` itself), from /proc. */
export function descendantsRss(root = process.pid): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // the process ended while we looked
    }
  }
  let total = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples descendants' RSS every `ms` until stopped; returns the peak. */
export function trackPeakMemory(ms = 100): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, descendantsRss());
  }, ms);
  return () => {
    clearInterval(timer);
    return peak;
  };
}
