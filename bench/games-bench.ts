/**
 * npm run bench:games — the games pack on bench/games (8 hand-written games, each with a plan,
 * and 32 versions with one bug each): how many bugs the plans find, how many correct games
 * fail, and artifacts judged per minute, against the same plans played with a screenshot after
 * every step (what a GUI agent looking at the game pays for), both in the same run, artifact by
 * artifact in alternating order, one at a time.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { gamesPack, playCase, prepareGameChecks, readGameTasks, type GameChecks } from '../src/domains/games/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const tasks = readGameTasks(join(ROOT, 'bench/games/games.jsonl'));
const buggy = readFileSync(join(ROOT, 'bench/games/buggy.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as { task_id: string; bug: string; html: string });

const runtime = new BrowserRuntime();
const pack = gamesPack(runtime);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

try {
  const checks = new Map<string, GameChecks>();
  for (const task of tasks)
    checks.set(task.id, await prepareGameChecks(runtime, task, { audience: 'scorer', seed: 1 }));
  const cases = [...checks.values()].reduce((n, c) => n + c.count, 0);
  process.stdout.write(`${tasks.length} games, ${cases} plan cases, ${buggy.length} buggy versions\n\n`);

  // Bugs found, and correct games that fail.
  const wronglyFailed: string[] = [];
  for (const task of tasks) {
    const report = await pack.verify(checks.get(task.id)!, task.reference!);
    if (!report.passed) wronglyFailed.push(`${task.id}: ${report.failures[0]?.message}`);
  }
  const missed: string[] = [];
  const byGame = new Map<string, { found: number; of: number }>();
  for (const version of buggy) {
    const report = await pack.verify(checks.get(version.task_id)!, version.html);
    const tally = byGame.get(version.task_id) ?? { found: 0, of: 0 };
    tally.of++;
    if (report.passed) missed.push(`${version.task_id}: ${version.bug}`);
    else tally.found++;
    byGame.set(version.task_id, tally);
  }
  process.stdout.write('| game | bugs found |\n|---|---|\n');
  for (const [game, t] of byGame) process.stdout.write(`| ${game} | ${t.found} of ${t.of} |\n`);
  const found = buggy.length - missed.length;
  process.stdout.write(
    `\nbugs found: ${found} of ${buggy.length}; correct games failed: ${wronglyFailed.length} of ${tasks.length}\n` +
      (missed.length ? `missed:\n${missed.map((m) => `  ${m}`).join('\n')}\n` : '') +
      (wronglyFailed.length ? `correct games failed:\n${wronglyFailed.map((m) => `  ${m}`).join('\n')}\n` : ''),
  );

  // Throughput: every case of every artifact played, with DOM checks only, or a screenshot after each step.
  const artifacts = [
    ...tasks.map((t) => ({ id: t.id, html: t.reference! })),
    ...buggy.map((b) => ({ id: b.task_id, html: b.html })),
  ];
  const times = { dom: [] as number[], screenshots: [] as number[] };
  let shots = 0;
  const playAll = async (html: string, c: GameChecks, screenshot: boolean) => {
    const t0 = performance.now();
    await runtime.judge(html, async (session) => {
      for (const planCase of c.cases)
        await playCase(
          session,
          planCase.steps,
          screenshot ? () => session.page.screenshot().then(() => shots++) : undefined,
        );
    });
    return performance.now() - t0;
  };
  for (const [i, artifact] of artifacts.entries()) {
    const c = checks.get(artifact.id)!;
    const order = i % 2 === 0 ? ([false, true] as const) : ([true, false] as const);
    for (const screenshot of order)
      times[screenshot ? 'screenshots' : 'dom'].push(await playAll(artifact.html, c, screenshot));
  }
  const perMinute = (ms: readonly number[]) => (60_000 * ms.length) / ms.reduce((a, b) => a + b, 0);
  process.stdout.write(
    `\n| how | artifacts per minute | median per artifact |\n|---|---|---|\n` +
      `| plan, DOM checks | ${perMinute(times.dom).toFixed(1)} | ${(median(times.dom) / 1000).toFixed(2)} s |\n` +
      `| plan + a screenshot after every step (${shots} screenshots) | ${perMinute(times.screenshots).toFixed(1)} | ${(median(times.screenshots) / 1000).toFixed(2)} s |\n` +
      `\nDOM checks judge ×${(perMinute(times.dom) / perMinute(times.screenshots)).toFixed(2)} as many artifacts per minute\n`,
  );
} finally {
  await runtime.close();
}
