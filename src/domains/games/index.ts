/**
 * The games pack (ALIVE): a model writes a mini-game as one HTML document; Crucible plays it in
 * chromium with a test plan and checks the DOM (README.md beside this file). Bound to a
 * BrowserRuntime: one browser for the run, a fresh context per load.
 */
import type { BrowserRuntime } from '../../browser/runtime.js';
import { extractHtmlDocument } from '../html-document.js';
import type { Behaviour, DomainPack, PrepareOptions } from '../types.js';
import { actionsOf, type PlanCase, type Step } from './plan.js';
import { playCase, playForKey } from './play.js';
import type { GameTask } from './task.js';
import { caseSuite, verifyGame, type GameChecks, type GameProbe } from './verify.js';

export { describeStep, parsePlan, type PlanCase, type Step } from './plan.js';
export { gameTaskOf, isGameTaskFile, readGameTasks, type GameTask } from './task.js';
export { caseSuite, LOAD_SUITE, verifyGame, type GameChecks, type GameProbe } from './verify.js';
export { playCase, type CaseOutcome } from './play.js';

export type GamesPack = DomainPack<GameTask, string, GameChecks, GameProbe>;

const probeOf = (actions: readonly Step[]): GameProbe => ({ text: JSON.stringify(actions), actions });

export function gamesPack(runtime: BrowserRuntime): GamesPack {
  return {
    name: 'games',
    extract(_task, reply) {
      const html = extractHtmlDocument(reply);
      return html === undefined ? undefined : { artifact: html, form: 'html document' };
    },
    prepare: (task, options) => prepareGameChecks(runtime, task, options),
    verify: (checks, html, options) => verifyGame(runtime, checks, html, options),
    probes: (checks) => checks.probes,
    async observe(checks, artifacts, probes): Promise<Behaviour> {
      const keys = [];
      for (const html of artifacts) {
        const judged = await runtime
          .judge(html, async (session) => {
            const row: (string | null)[] = [];
            for (const probe of probes) row.push(await playForKey(session, probe.actions));
            return row;
          })
          .catch(() => undefined);
        keys.push(
          judged === undefined
            ? probes.map(() => null)
            : 'abort' in judged
              ? probes.map(() => `!${judged.abort.status}`)
              : judged.value,
        );
      }
      return { keys, breaksProperty: artifacts.map(() => false), properties: 0 };
    },
    neighbours: (_checks, near, count, seed, seen) => mutatedActions(near, count, seed, seen),
  };
}

/**
 * The task's cases (a solver's: those not hidden), each checked against the reference first
 * when there is one (a case the reference fails is a wrong case, dropped and said so), and the
 * cases' actions as selection's probes.
 */
export async function prepareGameChecks(
  runtime: BrowserRuntime,
  task: GameTask,
  options: PrepareOptions,
): Promise<GameChecks> {
  let cases: PlanCase[] = (task.plan ?? []).filter((c) => options.audience === 'scorer' || !c.hidden);
  let dropped = 0;
  if (task.reference !== undefined && options.oracle !== false && cases.length > 0) {
    const judged = await runtime.judge(task.reference, async (session) => {
      const ok: PlanCase[] = [];
      for (const c of cases) if ((await playCase(session, c.steps)).status === 'pass') ok.push(c);
      return ok;
    });
    if ('value' in judged) {
      dropped = cases.length - judged.value.length;
      cases = judged.value;
    }
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    task,
    cases,
    probes: cases.map((c) => probeOf(actionsOf(c))).filter((p) => p.actions.length > 0),
    publicSuites: new Set(cases.flatMap((c, i) => (c.hidden ? [] : [caseSuite(c, i)]))),
    description:
      cases.length === 0
        ? task.plan === undefined
          ? 'nothing (the task has no plan)'
          : 'nothing (the reference fails every case of the plan)'
        : `${plural(cases.length, 'plan case')}${dropped ? ` (${plural(dropped, 'case')} the reference fails, dropped)` : ''}`,
    count: cases.length,
  };
}

/**
 * New action sequences near the given ones: a step dropped, repeated, or two swapped; the same
 * seed gives the same ones.
 */
function mutatedActions(
  near: readonly GameProbe[],
  count: number,
  seed: number,
  seen: ReadonlySet<string>,
): GameProbe[] {
  const found: GameProbe[] = [];
  const taken = new Set(seen);
  let state = seed >>> 0 || 1;
  const next = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  for (let tries = 0; found.length < count && near.length > 0 && tries < count * 20; tries++) {
    const actions = [...near[next(near.length)]!.actions];
    if (actions.length === 0) continue;
    const i = next(actions.length);
    const kind = next(3);
    if (kind === 0 && actions.length > 1) actions.splice(i, 1);
    else if (kind === 1) actions.splice(i, 0, actions[i]!);
    else if (actions.length > 1) {
      const j = (i + 1) % actions.length;
      [actions[i], actions[j]] = [actions[j]!, actions[i]!];
    } else continue;
    const probe = probeOf(actions);
    if (taken.has(probe.text)) continue;
    taken.add(probe.text);
    found.push(probe);
  }
  return found;
}
