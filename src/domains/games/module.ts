/** The games pack's entry in the registry (../registry.ts): its task files, the browser, its subject and its scoring. */
import type { PackModule } from '../pack-module.js';
import { gameTaskOf, isGameTaskFile, readGameTasks, type GameTask } from './task.js';
import type { GameChecks } from './verify.js';

export const gamesModule: PackModule<GameTask, GameChecks> = {
  name: 'games',
  taskNoun: 'a games task',
  writes: 'game',
  runs: 'pages',
  isTaskFile: isGameTaskFile,
  readTasks: readGameTasks,
  // A games line names no file.
  requestTaskOf: gameTaskOf,
  // Cases the reference fails are dropped: that tells the solver nothing the plan does not.
  withoutOracle: {},
  unscorable(tasks, file) {
    const planless = tasks.filter((t) => t.plan === undefined).map((t) => t.id);
    if (planless.length === 0) return undefined;
    return `${file}: ${planless.slice(0, 3).join(', ')}${planless.length > 3 ? ` and ${planless.length - 3} more` : ''} have no plan, so nothing scores them; give each task a "plan" (crucible solve writes one with the model)`;
  },
  // ALIVE's one-shot planning: without a plan, the model writes one from the prompt, once.
  async beforeSolve(task, { model, seed, log }) {
    if (task.plan !== undefined) return task;
    const written = await (await import('./write-plan.js')).writePlan(model, task, { seed });
    if ('error' in written)
      throw new Error(`${task.id} has no plan, and the one the model wrote is not valid: ${written.error}`);
    log(
      `${task.id} has no plan: the model wrote ${written.plan.length} cases${task.reference === undefined ? ' (no reference to check them on)' : ''}`,
    );
    return { ...task, plan: written.plan };
  },
  async open(options) {
    const [{ BrowserRuntime }, { gamesPack }, { gamesSubject }, { caseSuite, LOAD_SUITE }] = await Promise.all([
      import('../../browser/runtime.js'),
      import('./index.js'),
      import('./subject.js'),
      import('./verify.js'),
    ]);
    const runtime = new BrowserRuntime({ sandbox: options.sandbox });
    return {
      pack: gamesPack(runtime),
      // Two pages at once keep the browser busy on two cores (bench:games).
      concurrency: 2,
      subject: async (task, checks) => gamesSubject(runtime, task, checks),
      unusable: (checks) =>
        checks.count === 0
          ? `${checks.task.id} cannot be checked: ${checks.description}. Give the task a "plan" (src/domains/games/README.md has the format)`
          : undefined,
      suites: (checks) => [LOAD_SUITE, ...checks.cases.map(caseSuite)].map((name) => ({ name, total: 1 })),
      settings: () => runtime.settings,
      close: () => runtime.close(),
    };
  },
};
