/**
 * A budget bounds what a strategy may spend: model calls, tokens, dollars, wall time and
 * sandbox time. The tracker is pure bookkeeping; the clock is passed in, so tests and
 * replays decide what time it is.
 */
import { z } from 'zod';

export const budgetSchema = z
  .object({
    modelCalls: z.number().int().positive(),
    /** Prompt plus completion tokens. */
    tokens: z.number().int().positive(),
    costUsd: z.number().positive(),
    wallSeconds: z.number().positive(),
    sandboxSeconds: z.number().positive(),
  })
  .partial()
  .strict();
export type Budget = z.infer<typeof budgetSchema>;
export type BudgetResource = keyof Budget;
export const BUDGET_RESOURCES: readonly BudgetResource[] = [
  'modelCalls',
  'tokens',
  'costUsd',
  'wallSeconds',
  'sandboxSeconds',
];

export interface BudgetUsage {
  readonly modelCalls: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly wallSeconds: number;
  readonly sandboxSeconds: number;
}

export const NO_USAGE: BudgetUsage = { modelCalls: 0, tokens: 0, costUsd: 0, wallSeconds: 0, sandboxSeconds: 0 };

export interface Exhaustion {
  readonly resource: BudgetResource;
  readonly limit: number;
  readonly used: number;
}

export function addUsage(a: BudgetUsage, b: Partial<BudgetUsage>): BudgetUsage {
  return {
    modelCalls: a.modelCalls + (b.modelCalls ?? 0),
    tokens: a.tokens + (b.tokens ?? 0),
    costUsd: a.costUsd + (b.costUsd ?? 0),
    wallSeconds: a.wallSeconds + (b.wallSeconds ?? 0),
    sandboxSeconds: a.sandboxSeconds + (b.sandboxSeconds ?? 0),
  };
}

/** The first resource whose use has reached its limit, or null while everything is within budget. */
export function exhaustion(budget: Budget, usage: BudgetUsage): Exhaustion | null {
  for (const resource of BUDGET_RESOURCES) {
    const limit = budget[resource];
    if (limit !== undefined && usage[resource] >= limit) return { resource, limit, used: usage[resource] };
  }
  return null;
}

/** What is left of each bounded resource (unbounded ones are absent). */
export function remaining(budget: Budget, usage: BudgetUsage): Partial<BudgetUsage> {
  const left: Partial<Record<BudgetResource, number>> = {};
  for (const resource of BUDGET_RESOURCES) {
    const limit = budget[resource];
    if (limit !== undefined) left[resource] = Math.max(0, limit - usage[resource]);
  }
  return left;
}

/** Whether spending `cost` more would stay within the budget (e.g. before a model call). */
export function fits(budget: Budget, usage: BudgetUsage, cost: Partial<BudgetUsage>): boolean {
  const after = addUsage(usage, cost);
  return BUDGET_RESOURCES.every((r) => budget[r] === undefined || after[r] <= budget[r]!);
}

const UNITS: Record<string, BudgetResource> = {
  calls: 'modelCalls',
  tokens: 'tokens',
  cost: 'costUsd',
  usd: 'costUsd',
  wall: 'wallSeconds',
  time: 'wallSeconds',
  sandbox: 'sandboxSeconds',
};

/** Parses `--budget calls=20,tokens=50000,cost=0.5,wall=120s,sandbox=2m`. */
export function parseBudget(text: string): Budget {
  const budget: Record<string, number> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z]+)\s*=\s*\$?([0-9]*\.?[0-9]+)\s*(k|m|s|min|h)?$/i.exec(part);
    const resource = match ? UNITS[match[1]!.toLowerCase()] : undefined;
    if (!match || !resource) {
      throw new Error(
        `budget "${part}" is not understood; write e.g. calls=20,tokens=50k,cost=0.5,wall=2min,sandbox=60s`,
      );
    }
    let value = Number(match[2]);
    const unit = match[3]?.toLowerCase();
    const seconds = resource === 'wallSeconds' || resource === 'sandboxSeconds';
    if (unit === 'k' && !seconds) value *= 1_000;
    else if (unit === 'm' && !seconds) value *= 1_000_000;
    else if ((unit === 'm' || unit === 'min') && seconds) value *= 60;
    else if (unit === 'h' && seconds) value *= 3600;
    else if (unit && !(unit === 's' && seconds))
      throw new Error(`budget "${part}": the unit ${unit} does not fit ${match[1]}`);
    budget[resource] = resource === 'modelCalls' || resource === 'tokens' ? Math.round(value) : value;
  }
  return budgetSchema.parse(budget);
}

/** Running usage against a budget; wall time comes from the clock it is given. */
export class BudgetTracker {
  private spent: BudgetUsage = NO_USAGE;
  private readonly startedAt: number;

  constructor(
    readonly budget: Budget,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
  }

  recordModelCall(tokens: number, costUsd: number | null = 0): void {
    this.spent = addUsage(this.spent, { modelCalls: 1, tokens, costUsd: costUsd ?? 0 });
  }

  recordSandbox(seconds: number): void {
    this.spent = addUsage(this.spent, { sandboxSeconds: seconds });
  }

  usage(): BudgetUsage {
    return { ...this.spent, wallSeconds: (this.now() - this.startedAt) / 1000 };
  }

  exhausted(): Exhaustion | null {
    return exhaustion(this.budget, this.usage());
  }

  fits(cost: Partial<BudgetUsage>): boolean {
    return fits(this.budget, this.usage(), cost);
  }

  remaining(): Partial<BudgetUsage> {
    return remaining(this.budget, this.usage());
  }
}

export function describeExhaustion(e: Exhaustion): string {
  const names: Record<BudgetResource, string> = {
    modelCalls: 'model calls',
    tokens: 'tokens',
    costUsd: 'dollars',
    wallSeconds: 'seconds of wall time',
    sandboxSeconds: 'sandbox seconds',
  };
  return `budget spent: ${round(e.used)} of ${round(e.limit)} ${names[e.resource]}`;
}

const round = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
