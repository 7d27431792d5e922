/**
 * A game's test plan (ALIVE's one-shot plan): cases of steps played on the page and assertions
 * on its DOM. The format, documented in README.md beside this file:
 *
 *   [{ "name": "X wins on a diagonal", "steps": [
 *       { "click": "#cell-0" }, { "key": "ArrowUp", "target": "#board" }, { "type": "#guess", "text": "42" },
 *       { "wait": 1000 },
 *       { "expect": { "selector": "#status", "text": "X wins" } } ] }]
 *
 * Every case starts from a fresh load with the virtual clock at 0; `wait` advances it. An
 * `expect` holds when its element exists (unless `exists: false`) and each field given matches.
 */
import { z } from 'zod';

const selector = z.string().min(1, 'a CSS selector');

export const expectationSchema = z
  .object({
    selector,
    exists: z.boolean().optional(),
    /** textContent, trimmed, exactly. */
    text: z.string().optional(),
    text_contains: z.string().optional(),
    count: z.number().int().nonnegative().optional(),
    attr: z.record(z.string(), z.string()).optional(),
    visible: z.boolean().optional(),
  })
  .strict();
export type Expectation = z.infer<typeof expectationSchema>;

const STEP_KINDS = {
  click: z.object({ click: selector }).strict(),
  key: z.object({ key: z.string().min(1), target: selector.optional() }).strict(),
  type: z.object({ type: selector, text: z.string() }).strict(),
  wait: z.object({ wait: z.number().int().nonnegative().max(600_000) }).strict(),
  expect: z.object({ expect: expectationSchema }).strict(),
} as const;

export type Step = { [K in keyof typeof STEP_KINDS]: z.infer<(typeof STEP_KINDS)[K]> }[keyof typeof STEP_KINDS];

export interface PlanCase {
  readonly name: string;
  readonly steps: readonly Step[];
  /** Not shown to a solver (a scorer's case). */
  readonly hidden?: boolean;
}

const caseShape = z
  .object({ name: z.string().min(1), steps: z.array(z.unknown()).min(1), hidden: z.boolean().optional() })
  .strict();

/**
 * The plan — a list of cases, or `{ "cases": [...] }` — or why it is not one, each problem at
 * its place (`1.steps.0: a step is one of click, key, type, wait, expect`): a model that wrote
 * the plan can be told exactly what to fix. Hand-written rather than one zod union, whose error
 * for a bad step is only "Invalid input".
 */
export function parsePlan(value: unknown): { plan: PlanCase[] } | { error: string } {
  const list = Array.isArray(value) ? value : (value as { cases?: unknown } | null)?.cases;
  if (!Array.isArray(list)) return { error: 'plan: a list of cases {"name", "steps"}, or {"cases": [...]}' };
  const problems: string[] = [];
  const plan: PlanCase[] = [];
  list.forEach((raw, i) => {
    const shape = caseShape.safeParse(raw);
    if (!shape.success) {
      problems.push(...shape.error.issues.map((issue) => `${[i, ...issue.path].join('.')}: ${issue.message}`));
      return;
    }
    const steps: Step[] = [];
    shape.data.steps.forEach((step, j) => {
      const kind = (Object.keys(STEP_KINDS) as Array<keyof typeof STEP_KINDS>).find(
        (k) => step !== null && typeof step === 'object' && k in step,
      );
      if (!kind) {
        const keys = step !== null && typeof step === 'object' ? Object.keys(step).join(', ') : typeof step;
        problems.push(
          `${i}.steps.${j}: a step is one of ${Object.keys(STEP_KINDS).join(', ')}; got ${keys || 'nothing'}`,
        );
        return;
      }
      const parsed = STEP_KINDS[kind].safeParse(step);
      if (parsed.success) steps.push(parsed.data as Step);
      else
        problems.push(
          ...parsed.error.issues.map((issue) => `${[i, 'steps', j, ...issue.path].join('.')}: ${issue.message}`),
        );
    });
    if (!steps.some((s) => 'expect' in s)) problems.push(`${i}: a case needs at least one expect step`);
    plan.push({
      name: shape.data.name,
      steps,
      ...(shape.data.hidden !== undefined ? { hidden: shape.data.hidden } : {}),
    });
  });
  if (list.length === 0) problems.push('plan: it has no case');
  return problems.length ? { error: problems.slice(0, 6).join('; ') } : { plan };
}

/** A step as a person reads it: `click #cell-0`, `wait 1000 ms`, `expect #status text "X wins"`. */
export function describeStep(step: Step): string {
  if ('click' in step) return `click ${step.click}`;
  if ('key' in step) return `press ${JSON.stringify(step.key)}${step.target ? ` on ${step.target}` : ''}`;
  if ('type' in step) return `type ${JSON.stringify(step.text)} into ${step.type}`;
  if ('wait' in step) return `wait ${step.wait} ms`;
  return `expect ${describeExpectation(step.expect)}`;
}

export function describeExpectation(e: Expectation): string {
  const parts: string[] = [];
  if (e.exists === false) parts.push('absent');
  if (e.text !== undefined) parts.push(`text ${JSON.stringify(e.text)}`);
  if (e.text_contains !== undefined) parts.push(`text containing ${JSON.stringify(e.text_contains)}`);
  if (e.count !== undefined) parts.push(`count ${e.count}`);
  if (e.attr) for (const [k, v] of Object.entries(e.attr)) parts.push(`${k}=${JSON.stringify(v)}`);
  if (e.visible !== undefined) parts.push(e.visible ? 'visible' : 'hidden');
  return `${e.selector}${parts.length ? ` ${parts.join(', ')}` : ' exists'}`;
}

/** The actions of a case (what is played), without its assertions. */
export const actionsOf = (c: PlanCase): Step[] => c.steps.filter((s) => !('expect' in s));
