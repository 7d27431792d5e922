/** Text views of stored runs: the list for `crucible runs`, the tree for `crucible show`. */
import type { TraceEvent } from '../core/trace.js';
import { commandLabel as command, describeResult, headlineLines, isCommandRun } from './command-runs.js';
import type { Run } from './store.js';

const MAX_TEXT = 72;

function excerpt(text: string, max = MAX_TEXT): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  const trimmed = line.trim();
  const more = trimmed.length > max || text.trim().includes('\n');
  return (
    JSON.stringify(trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed) +
    (more && trimmed.length <= max ? ' …' : '')
  );
}

const tokens = (run: Run) => (run.usage ? run.usage.inputTokens + run.usage.outputTokens : 0);
const dollars = (cost: number | null | undefined) =>
  cost === null || cost === undefined ? '?' : `$${cost.toFixed(cost < 0.01 && cost > 0 ? 4 : 2)}`;

function seconds(from: string, to: string | null): string {
  if (!to) return 'running';
  return `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s`;
}

/** Paths are shortened from the front: their end names the file. */
function tail(text: string, max = 40): string {
  return text.length > max ? `…${text.slice(text.length - max + 1)}` : text;
}

/** The command run's figures; for a run that failed or was stopped without any, why. */
function result(run: Run): string {
  const figures = describeResult(run);
  if (figures || run.status === 'running') return figures;
  const reason = run.summary?.reason;
  return (run.status === 'error' || run.status === 'interrupted') && typeof reason === 'string' ? excerpt(reason) : '';
}

export function formatRunList(runs: readonly Run[]): string {
  if (runs.length === 0)
    return 'no runs yet (crucible solve records one per task; eval, select, calibrate and audit one per run)';
  const rows = runs.map((r) => {
    const eventful = !isCommandRun(r); // a command's run has its figures, not events
    return [
      r.id,
      r.startedAt.replace('T', ' ').slice(0, 19),
      r.status,
      command(r),
      tail(r.model),
      tail(r.task),
      eventful ? String(r.events) : '',
      eventful || r.usage ? String(tokens(r)) : '',
      r.usage ? dollars(r.usage.costUsd) : '',
      result(r),
    ];
  });
  const header = [
    'RUN',
    'STARTED',
    'STATUS',
    'COMMAND',
    'MODEL/SAMPLES',
    'TASK/DATASET',
    'EVENTS',
    'TOKENS',
    'COST',
    'RESULT',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One line saying what an event is. */
export function describeEvent(event: TraceEvent): string {
  const label = event.label ? ` [${event.label}]` : '';
  const d = event.data as Record<string, any>;
  switch (event.kind) {
    case 'prompt': {
      const last = [...d.messages].reverse().find((m: { role: string }) => m.role === 'user');
      return `prompt${label}  ${d.model}, ${d.messages.length} message${d.messages.length === 1 ? '' : 's'}: ${excerpt(last?.content ?? '')}`;
    }
    case 'response': {
      const cost = d.costUsd ? `, ${dollars(d.costUsd)}` : '';
      const texts = d.texts.length === 1 ? '' : `${d.texts.length} completions, `;
      return `response${label}  ${texts}${d.usage.inputTokens}+${d.usage.outputTokens} tokens, ${(d.latencyMs / 1000).toFixed(2)} s${d.cached ? ', cached' : ''}${cost}: ${excerpt(d.texts[0] ?? '')}`;
    }
    case 'candidate': {
      const lines = String(d.program)
        .split('\n')
        .filter((l) => l.trim()).length;
      return `candidate${label}  ${lines} line${lines === 1 ? '' : 's'}: ${excerpt(d.program)}`;
    }
    case 'verdict': {
      const counts = typeof d.passed === 'number' && typeof d.total === 'number' ? ` ${d.passed}/${d.total}` : '';
      const f = d.firstFailure;
      const failure = f
        ? ` — ${f.message ?? 'failed'}${f.input ? ` | input ${f.input}` : ''}${f.expected ? ` | expected ${f.expected}` : ''}${f.actual ? ` | got ${f.actual}` : ''}`
        : '';
      return `verdict${label}  ${d.status}${counts}${failure}`;
    }
    case 'feedback':
      return `feedback${label}  ${excerpt(d.text)}`;
    case 'decision':
      return `decision${label}  ${d.action}: ${d.reason}`;
    case 'tool':
      return `tool${label}  ${d.name} ${excerpt(JSON.stringify(d.input ?? {}), 48)} → ${d.ok ? '' : 'refused: '}${excerpt(d.output)}`;
  }
}

/** The run's events as a tree (children under their parent, in the order they happened). */
export function formatRunTree(run: Run, events: readonly TraceEvent[]): string {
  const commandRun = isCommandRun(run);
  const lines = [
    commandRun
      ? `run ${run.id}  ${run.status}  ${command(run)}  judged ${run.model}  dataset ${run.task}`
      : `run ${run.id}  ${run.status}  strategy ${run.strategy}  model ${run.model}  task ${run.task}`,
    `started ${run.startedAt}  (${seconds(run.startedAt, run.finishedAt)})`,
  ];
  if (run.budget && Object.keys(run.budget).length)
    lines.push(
      `budget ${Object.entries(run.budget)
        .map(([k, v]) => `${k} ≤ ${v}`)
        .join(', ')}`,
    );
  if (run.usage) {
    const u = run.usage;
    lines.push(
      `usage ${u.modelCalls} model calls, ${u.inputTokens}+${u.outputTokens} tokens, ${dollars(u.costUsd)}${u.sandboxSeconds !== undefined ? `, ${u.sandboxSeconds.toFixed(1)} sandbox s` : ''}`,
    );
  }
  if (run.summary?.reason) lines.push(`reason ${String(run.summary.reason)}`);
  if (commandRun) {
    // A command's run has no events: its figures, and where the rest is.
    if (!run.headline) return lines.join('\n');
    return [
      ...lines,
      `result ${describeResult(run)}`,
      'figures',
      ...headlineLines(run.headline),
      `(the whole document: crucible show ${run.id} --json)`,
    ].join('\n');
  }
  if (events.length === 0) return [...lines, '(no events)'].join('\n');

  const ids = new Set(events.map((e) => e.id));
  const children = new Map<number | null, TraceEvent[]>();
  for (const event of events) {
    const parent = event.parentId !== null && ids.has(event.parentId) ? event.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), event]);
  }
  const walk = (parent: number | null, indent: string) => {
    const list = children.get(parent) ?? [];
    list.forEach((event, i) => {
      const last = i === list.length - 1;
      lines.push(`${indent}${last ? '└─ ' : '├─ '}${describeEvent(event)}`);
      walk(event.id, indent + (last ? '   ' : '│  '));
    });
  };
  walk(null, '');
  return lines.join('\n');
}
