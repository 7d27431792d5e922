/** The docs pack's entry in the registry (../registry.ts): its task files, the browser, its subject and its scoring. */
import type { PackModule } from '../pack-module.js';
import { docTaskOf, isDocTaskFile, readDocTasks, type DocTask } from './task.js';
import type { DocChecks } from './verify.js';

export const docsModule: PackModule<DocTask, DocChecks> = {
  name: 'docs',
  taskNoun: 'a docs task',
  writes: 'document',
  runs: 'pages',
  isTaskFile: isDocTaskFile,
  readTasks: readDocTasks,
  requestTaskOf: (value, where) => docTaskOf(value, where, null),
  // The reviewer is the same for everyone: nothing is kept from the solver.
  withoutOracle: {},
  async open(options) {
    const [{ BrowserRuntime }, { docsPack }, { docsSubject }, { CONTENT_SUITE }] = await Promise.all([
      import('../../browser/runtime.js'),
      import('./index.js'),
      import('./subject.js'),
      import('./verify.js'),
    ]);
    const runtime = new BrowserRuntime({ sandbox: options.sandbox });
    return {
      pack: docsPack(runtime),
      // Two pages at once keep the browser busy on two cores (bench:docs).
      concurrency: 2,
      subject: async (task, checks) => docsSubject(runtime, task, checks),
      unusable: () => undefined,
      suites: (checks) =>
        [...checks.publicSuites].map((name) => ({ name, total: name === CONTENT_SUITE ? checks.expect.length : 1 })),
      settings: () => runtime.settings,
      close: () => runtime.close(),
    };
  },
};
