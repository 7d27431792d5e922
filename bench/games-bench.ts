/**
 * npm run bench:games — the games pack on bench/games (8 hand-written games, each with a plan,
 * and 32 versions with one bug each): how many bugs the plans find, how many correct games
 * fail, and artifacts judged per minute, against the same plans played with a screenshot after
 * every step (what a GUI agent looking at the game pays for), both in the same run, artifact by
 * artifact in alternating order, one at a time. Then what the judge's safety costs, in the same
 * run: the correct games played in the confined browser against an unconfined one (`sandbox:
 * 'none'`, what the judge ran before it was sandboxed), in alternating order; and one DOM read in
 * the judge's own world (what every assertion is now) against the same read in the page's world.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ARTIFACT_URL, BrowserRuntime } from '../src/browser/runtime.js';
import { launchChromium } from '../src/browser/chromium.js';
import { JudgeWorld } from '../src/browser/judge-world.js';
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

  // The sandbox's cost: the correct games, twice each, confined and not, in alternating order.
  const unconfined = new BrowserRuntime({ sandbox: 'none' });
  const sandbox = { confined: [] as number[], unconfined: [] as number[] };
  try {
    const playOn = async (on: BrowserRuntime, html: string, c: GameChecks) => {
      const t0 = performance.now();
      await on.judge(html, async (session) => {
        for (const planCase of c.cases) await playCase(session, planCase.steps);
      });
      return performance.now() - t0;
    };
    await playOn(unconfined, tasks[0]!.reference!, checks.get(tasks[0]!.id)!); // its launch, not counted
    for (let round = 0; round < 2; round++)
      for (const [i, task] of tasks.entries()) {
        const order =
          (i + round) % 2 === 0 ? (['confined', 'unconfined'] as const) : (['unconfined', 'confined'] as const);
        for (const how of order)
          sandbox[how].push(
            await playOn(how === 'confined' ? runtime : unconfined, task.reference!, checks.get(task.id)!),
          );
      }
  } finally {
    await unconfined.close();
  }
  const ratios = sandbox.confined.map((ms, i) => ms / sandbox.unconfined[i]!);
  process.stdout.write(
    `\n| browser | games per minute | median per game |\n|---|---|---|\n` +
      `| confined (bubblewrap, seccomp, cgroup) | ${perMinute(sandbox.confined).toFixed(1)} | ${(median(sandbox.confined) / 1000).toFixed(2)} s |\n` +
      `| unconfined (--sandbox none) | ${perMinute(sandbox.unconfined).toFixed(1)} | ${(median(sandbox.unconfined) / 1000).toFixed(2)} s |\n` +
      `\nconfined / unconfined time per game, median of ${ratios.length} pairs: ×${median(ratios).toFixed(2)}\n`,
  );

  // One read, in the judge's world and in the page's, on one page, in alternating order.
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.route('**/*', (route) => route.fulfill({ contentType: 'text/html', body: '<p id="x">seen</p>' }));
    await page.goto(ARTIFACT_URL);
    const world = await JudgeWorld.open(page);
    const reads = { judge: [] as number[], page: [] as number[] };
    const read = 'document.querySelector("#x").textContent';
    for (let i = 0; i < 400; i++) {
      const order = i % 2 === 0 ? (['judge', 'page'] as const) : (['page', 'judge'] as const);
      for (const where of order) {
        const t0 = performance.now();
        if (where === 'judge') await world.evaluate(read);
        else await page.evaluate(read);
        reads[where].push(performance.now() - t0);
      }
    }
    process.stdout.write(
      `\none DOM read, median of 400: in the judge's world ${median(reads.judge).toFixed(2)} ms, in the page's ${median(reads.page).toFixed(2)} ms (×${(median(reads.judge) / median(reads.page)).toFixed(2)})\n`,
    );
  } finally {
    await browser.close();
  }
} finally {
  await runtime.close();
}
