/** `crucible sql bugs`: debugging tasks (Squirrel-style) made from a dataset's correct queries. */
import { writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { chooseSeed } from '../core/seed.js';
import { bugTaskLine, injectBugs } from '../domains/sql/bugs.js';
import { distinctReferences, readSqlTasks, sqlPack } from '../domains/sql/index.js';
import { sqlRunnerFromFlags } from './harness-from-flags.js';
import { createProgress } from './progress.js';

export interface SqlBugsFlags {
  readonly dataset: string;
  readonly out: string;
  readonly seed?: number;
  readonly databases?: number;
  readonly limit?: number;
  readonly workers?: number;
  readonly sandbox: 'bwrap' | 'none';
}

export async function runSqlBugs(flags: SqlBugsFlags): Promise<void> {
  const tasks = distinctReferences(readSqlTasks(flags.dataset)).slice(0, flags.limit ?? Infinity);
  const seed = chooseSeed(flags.seed);
  process.stderr.write(
    `crucible: ${tasks.length} queries, databases generated with seed ${seed} (replay with --seed ${seed})\n`,
  );
  const runner = sqlRunnerFromFlags(flags);
  const pack = sqlPack(runner);
  const progress = createProgress('bugs');
  const outFolder = dirname(resolve(flags.out));
  const lines: unknown[] = [];
  const counts = { semantic: 0, syntax: 0, base: 0, skipped: 0 };
  try {
    for (const [i, task] of tasks.entries()) {
      const checks = await pack.prepare(task, {
        audience: 'scorer',
        seed,
        ...(flags.databases ? { probes: flags.databases } : {}),
      });
      progress.update(i + 1, tasks.length);
      if (!checks.base) {
        counts.skipped++;
        continue;
      }
      const database =
        task.database.kind === 'file'
          ? { database: relative(outFolder, task.database.path) }
          : { schema: task.database.schema, setup: task.database.setup };
      const bugs = await injectBugs(runner, checks);
      bugs.forEach((bug, n) => {
        counts[bug.kind]++;
        if (bug.caughtBy === 'base') counts.base++;
        lines.push(bugTaskLine(task, bug, n, database));
      });
    }
  } finally {
    progress.stop();
    await runner.close();
  }
  writeFileSync(flags.out, lines.map((line) => JSON.stringify(line)).join('\n') + (lines.length ? '\n' : ''));
  process.stdout.write(
    `${lines.length} debugging tasks from ${tasks.length - counts.skipped} queries written to ${flags.out}: ` +
      `${counts.semantic} semantic (${counts.base} told apart on the task's own database, ${counts.semantic - counts.base} only on generated ones), ${counts.syntax} syntax` +
      (counts.skipped ? `; ${counts.skipped} queries skipped (their reference does not run)` : '') +
      '\n',
  );
}
