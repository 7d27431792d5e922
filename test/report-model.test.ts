/**
 * `crucible eval --model … --html FILE`, as a user runs it against a scripted model server: the
 * report of generated samples shows, per sample, what the strategy did (status, reason, attempts,
 * usage) beside the verdict, in a real browser from file://.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../src/browser/chromium.js';
import { crucible } from './cli-support.js';
import { builtin, fenced, scriptedModel } from './strategies-support.js';

const dir = mkdtempSync(join(tmpdir(), 'crucible-report-model-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test(
  'the report of eval --model shows each sample’s strategy: status, reason, attempts and usage',
  { timeout: 120_000 },
  async () => {
    const browser = await launchChromium();
    const rle = builtin('builtin/py/run-length-encode');
    const merge = builtin('builtin/py/merge-intervals');
    const model = await scriptedModel({
      programs: [fenced(rle.program('groupby')), fenced(merge.program('assumes-sorted'))],
    });
    try {
      const json = join(dir, 'eval.json');
      const html = join(dir, 'eval.html');
      const r = await crucible(
        [
          'eval',
          '--model',
          `${model.server.url}#fake-model`,
          '--strategy',
          'sample',
          '--candidates',
          '1',
          '--limit',
          '2',
          '--budget',
          'calls=2',
          '--seed',
          '4',
          '--workers',
          '1',
          '--json',
          json,
          '--html',
          html,
          '--no-record',
          '--cache-dir',
          join(dir, 'cache'),
        ],
        { cwd: dir },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`report written to ${html}`));
      const doc = JSON.parse(readFileSync(json, 'utf8'));
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await page.goto(pathToFileURL(html).href);
      await page.waitForSelector('html[data-ready]');
      assert.equal(((await page.locator('.kind').textContent()) ?? '').trim(), 'eval --model');
      assert.ok(((await page.locator('.doc-header').textContent()) ?? '').includes('fake-model'), 'the model is named');
      for (const sample of doc.samples as {
        task_id: string;
        strategy: { status: string; reason: string; attempts: number };
      }[]) {
        await page.click(`[role="row"]:has([role="rowheader"][title="${sample.task_id}"]) [role="gridcell"]`);
        const strategy = page.locator('[role="dialog"] .sd-part:has(h3:text-is("Strategy")) dl');
        const shown = (await strategy.textContent()) ?? '';
        assert.ok(shown.includes(sample.strategy.status), `${sample.task_id}: ${shown}`);
        assert.ok(shown.includes(sample.strategy.reason), `${sample.task_id}: the reason`);
        assert.match(shown, new RegExp(`attempts${sample.strategy.attempts}`));
        assert.match(shown, /calls/);
        await page.keyboard.press('Escape');
      }
      assert.deepEqual(errors, []);
      assert.deepEqual(requests, [pathToFileURL(html).href]);
    } finally {
      await model.close();
      await browser.close();
    }
  },
);
