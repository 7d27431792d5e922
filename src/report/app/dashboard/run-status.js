/** How a run's time and progress read on the dashboard. */
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';

/** Every status a run can have, in the order the status filter lists them (badges: ../components/run-parts.js). */
export const RUN_STATUS_IDS = ['running', 'finished', 'verified', 'unverified', 'abstained', 'interrupted', 'error'];

/** @param {number} ms */
export function elapsed(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** A run's duration: to its finish, or to now while it runs. @param {{ startedAt: string, finishedAt: string | null }} run @param {number} now */
export const runDuration = (run, now) =>
  elapsed((run.finishedAt ? Date.parse(run.finishedAt) : now) - Date.parse(run.startedAt));

/** @param {string} iso */
export function started(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** The time, once a second while `ticking` (a running run's duration moves). @param {boolean} ticking */
export function useNow(ticking) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!ticking) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * A running command's progress: a bar and its figures.
 * @param {{ progress: import('./types').RunProgress, compact?: boolean }} props
 */
export function ProgressBar({ progress, compact = false }) {
  const share = progress.total > 0 ? progress.done / progress.total : 0;
  const label = progress.label ?? 'progress';
  return html`<div class=${compact ? 'dash-progress compact' : 'dash-progress'}>
    <progress
      value=${progress.done}
      max=${Math.max(progress.total, 1)}
      aria-label=${`${label}: ${progress.done} of ${progress.total}`}
      data-testid="run-progress"
    ></progress>
    <span class="dash-progress-text">
      ${label} <strong>${progress.done.toLocaleString('en')}</strong> / ${progress.total.toLocaleString('en')}${' '}
      ${!compact && html`<span class="muted">(${(100 * share).toFixed(0)}%)</span>`}
    </span>
  </div>`;
}
