/** Whether a program loads at all, asked of the sandbox with no tests: the gated reward's first levels, and a task's reference. */
import type { Language } from '../../core/task.js';
import type { Harness } from '../../verify/harness.js';

export type LoadCheck = { readonly kind: 'loads' } | { readonly kind: 'fails'; readonly message: string } | { readonly kind: 'no-verdict'; readonly why: string };

export async function checkLoads(harness: Harness, language: Language, program: string, signal?: AbortSignal): Promise<LoadCheck> {
  const probe = await harness.runtime(language).run({ program, suites: [], limits: harness.limits, ...(signal ? { signal } : {}) });
  if (probe.kind === 'no-verdict') return probe;
  if (probe.kind === 'ran' && !probe.load.ok) return { kind: 'fails', message: probe.load.message ?? probe.load.status ?? 'the program does not load' };
  return { kind: 'loads' };
}
