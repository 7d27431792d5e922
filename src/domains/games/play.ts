/**
 * Playing a plan's case on a page: a fresh load, then each step — an action, an advance of the
 * virtual clock, or an assertion on the DOM — in order. A case fails at its first assertion that
 * does not hold, at an action whose element is missing (the game's failure, said as such), or
 * with an uncaught page error or a refused request during it. What the DOM showed instead is
 * kept for the feedback. The DOM is read in the judge's own world (session.inspect), where the
 * game's scripts cannot change what a read returns: a page that patches `textContent` or
 * `querySelectorAll` to answer the plan shows only what its DOM really holds.
 */
import type { Status } from '../../core/verdict.js';
import type { BrowserSession } from '../../browser/runtime.js';
import { describeExpectation, describeStep, type Expectation, type Step } from './plan.js';

export interface CaseOutcome {
  readonly status: Extract<Status, 'pass' | 'fail' | 'error'>;
  /** The step that failed (from 0), and what was wanted and seen. */
  readonly failedStep?: number;
  readonly message?: string;
  readonly expected?: string;
  readonly actual?: string;
}

/** What the page shows of an element. */
interface Seen {
  readonly count: number;
  readonly text: string | null;
  readonly attrs: Record<string, string | null>;
  readonly visible: boolean;
}

/**
 * Loads the artifact and plays `steps`; errors of the page or its conduct fail the case as
 * `error`. `afterStep` runs after each step (the benchmark's screenshot-per-step baseline).
 */
export async function playCase(
  session: BrowserSession,
  steps: readonly Step[],
  afterStep?: () => Promise<unknown>,
): Promise<CaseOutcome> {
  const errorsBefore = session.pageErrors.length;
  const conductBefore = session.misconduct.length;
  await session.load();
  // Conduct first: a refused request is often the cause of the page's error (verify.ts).
  const misbehaved = (at: number): CaseOutcome | undefined => {
    const conduct = session.misconduct[conductBefore];
    if (conduct !== undefined)
      return {
        status: 'error',
        failedStep: at,
        message: `the page ${conduct.detail} (games are judged offline, alone: inline every script and style)`,
      };
    const error = session.pageErrors[errorsBefore];
    if (error !== undefined)
      return { status: 'error', failedStep: at, message: `uncaught error in the page: ${error}` };
    return undefined;
  };
  const atLoad = misbehaved(-1);
  if (atLoad) return atLoad;
  for (const [i, step] of steps.entries()) {
    const outcome = await runStep(session, step);
    if (afterStep) await session.step(afterStep);
    const bad = misbehaved(i);
    if (bad) return bad;
    if (outcome)
      return { ...outcome, failedStep: i, message: `step ${i + 1} (${describeStep(step)}): ${outcome.message}` };
  }
  return { status: 'pass' };
}

/** One step on the page as it is now (no load); undefined when it did what it says (an action done, an assertion held). */
export async function runStep(
  session: BrowserSession,
  step: Step,
): Promise<Omit<CaseOutcome, 'failedStep'> | undefined> {
  if ('wait' in step) {
    await session.advance(step.wait);
    return undefined;
  }
  if ('expect' in step)
    return check(
      step.expect,
      await session.inspect(see, { selector: step.expect.selector, names: Object.keys(step.expect.attr ?? {}) }),
    );
  const target = 'click' in step ? step.click : 'type' in step ? step.type : step.target;
  if (target !== undefined) {
    // Checked here, at once, rather than by Playwright's waiting for the element to become
    // actionable: that wait would run to its time limit on a busy machine as on a wrong game.
    const state = await session.inspect(actionable, target);
    if (state !== 'ok')
      return {
        status: 'fail',
        message: state === 'missing' ? `no element matches ${target}` : `${target} is ${state}: it cannot be used`,
        expected: `an element ${target} to take the action`,
        actual: state === 'missing' ? 'none' : state,
      };
  }
  await session.step(async () => {
    const element = target === undefined ? undefined : session.element(target);
    // force: the element was checked above; a click lands where it is, as a user's would.
    if ('click' in step) await element!.click({ force: true });
    else if ('type' in step) await element!.pressSequentially(step.text);
    else if (element) await element.press(step.key);
    else await session.page.keyboard.press(step.key);
  });
  return undefined;
}

/** Whether the first element matching `selector` can take an action, read in the judge's world. */
function actionable(selector: string): 'ok' | 'missing' | 'hidden' | 'disabled' | 'not a valid CSS selector' {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch {
    return 'not a valid CSS selector';
  }
  if (!element) return 'missing';
  if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return 'hidden';
  if ((element as HTMLButtonElement).disabled) return 'disabled';
  return 'ok';
}

/** What the page shows of the elements an expectation names, read in the judge's world. */
function see({ selector, names }: { selector: string; names: string[] }): Seen {
  let all: Element[];
  try {
    all = [...document.querySelectorAll(selector)];
  } catch {
    return { count: -1, text: null, attrs: {}, visible: false };
  }
  const first = all[0];
  const attrs: Record<string, string | null> = {};
  for (const name of names) attrs[name] = first?.getAttribute(name) ?? null;
  return {
    count: all.length,
    text: first ? (first.textContent ?? '').trim() : null,
    attrs,
    visible: first ? first.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) : false,
  };
}

function check(e: Expectation, seen: Seen): Omit<CaseOutcome, 'failedStep'> | undefined {
  const wanted = describeExpectation(e);
  const fail = (actual: string) => ({
    status: 'fail' as const,
    message: `expected ${wanted}; ${actual}`,
    expected: wanted,
    actual,
  });
  if (seen.count < 0) return fail(`${e.selector} is not a valid CSS selector`);
  if (e.exists === false)
    return seen.count === 0 ? undefined : fail(`${seen.count} element${seen.count === 1 ? '' : 's'} match`);
  if (e.count !== undefined && seen.count !== e.count) return fail(`${seen.count} match`);
  if (seen.count === 0) return e.count === 0 ? undefined : fail(`no element matches ${e.selector}`);
  if (e.text !== undefined && seen.text !== e.text) return fail(`it shows ${JSON.stringify(seen.text)}`);
  if (e.text_contains !== undefined && !seen.text?.includes(e.text_contains))
    return fail(`it shows ${JSON.stringify(seen.text)}`);
  for (const [name, value] of Object.entries(e.attr ?? {}))
    if (seen.attrs[name] !== value) return fail(`its ${name} is ${JSON.stringify(seen.attrs[name])}`);
  if (e.visible !== undefined && seen.visible !== e.visible)
    return fail(`it is ${seen.visible ? 'visible' : 'hidden'}`);
  return undefined;
}

/** What the page shows after some actions: the key selection compares (equal keys, equal behaviour). */
export async function playForKey(session: BrowserSession, actions: readonly Step[]): Promise<string> {
  const outcome = await playCase(session, actions);
  if (outcome.status === 'error') return `!${outcome.message}`;
  if (outcome.status === 'fail') return `!${outcome.message}`;
  const text = await session.inspect(bodyText, undefined);
  return `=${text.replace(/\s+/g, ' ').trim()}`;
}

/** The text the page shows, as a reader sees it (layout applied), read in the judge's world. */
function bodyText(): string {
  return document.body?.innerText ?? '';
}
