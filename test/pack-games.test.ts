/**
 * The games pack in a real chromium: the domain-pack contract, then what only a browser has —
 * the virtual clock, and every way a page can misbehave (a loop at load or in a handler, memory
 * without end, the network, popups, dialogs, navigating away), each followed by a right game
 * judged right.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { gamesPack, prepareGameChecks, type GameTask } from '../src/domains/games/index.js';
import { parsePlan } from '../src/domains/games/plan.js';
import { runPackContract } from './contracts/pack-contract.js';

// The default step limit: a loaded machine may take seconds to load a page, and a test must not fail for it.
const runtime = new BrowserRuntime({ heapMb: 128 });
after(() => runtime.close());

const counter = (onReset: string) => `<!doctype html>
<html><body>
<button id="inc">+1</button> <button id="reset">reset</button>
<p>count: <span id="count">0</span></p>
<p>time: <span id="clock">0</span></p>
<script>
  let n = 0;
  const show = () => (document.getElementById('count').textContent = String(n));
  document.getElementById('inc').addEventListener('click', () => { n += 1; show(); });
  document.getElementById('reset').addEventListener('click', () => { ${onReset} show(); });
  let t = 0;
  setInterval(() => (document.getElementById('clock').textContent = String(++t)), 1000);
</script>
</body></html>`;
const RIGHT = counter('n = 0;');
/** Reset does nothing: right on counting and the clock, wrong on reset. */
const WRONG = counter('');

const plan = parsePlan([
  {
    name: 'counts clicks',
    steps: [{ click: '#inc' }, { click: '#inc' }, { click: '#inc' }, { expect: { selector: '#count', text: '3' } }],
  },
  {
    name: 'reset starts over',
    steps: [{ click: '#inc' }, { click: '#inc' }, { click: '#reset' }, { expect: { selector: '#count', text: '0' } }],
  },
  { name: 'the clock ticks each second', steps: [{ wait: 3000 }, { expect: { selector: '#clock', text: '3' } }] },
]);
assert.ok('plan' in plan);
const task: GameTask = {
  id: 'games/counter',
  prompt: 'A click counter with a reset and a clock.',
  plan: plan.plan,
  reference: RIGHT,
};

runPackContract(() => gamesPack(runtime), {
  name: 'games',
  task,
  right: RIGHT,
  wrong: WRONG,
  broken: '<!doctype html><script>function (</script>',
  hostile: '<!doctype html><script>while (true) {}</script>',
  reply: `Here is the game:\n\n\`\`\`html\n${RIGHT}\n\`\`\`\n`,
  prepare: {},
});

const scorer = () => prepareGameChecks(runtime, task, { audience: 'scorer', seed: 1 });

test('a failing case says which step, what was wanted and what the page showed; shrinking cuts its actions', async () => {
  const report = await gamesPack(runtime).verify(await scorer(), WRONG, { shrink: true });
  assert.equal(report.verdict.status, 'fail');
  const fact = report.failures.find((f) => f.shrunk)!;
  assert.equal(fact.check, 'plan case "reset starts over"');
  assert.equal(fact.input, 'click #inc; click #reset; expect #count text "0"', 'one click is enough to show the bug');
  assert.equal(fact.actual, 'it shows "1"');
  assert.match(fact.message, /step \d \(expect #count text "0"\): expected #count text "0"; it shows "1"/);
  assert.deepEqual(
    report.verdict.suites.map((s) => [s.name, s.status]),
    [
      ['load', 'pass'],
      ['plan/1 counts clicks', 'pass'],
      ['plan/2 reset starts over', 'fail'],
      ['plan/3 the clock ticks each second', 'pass'],
    ],
  );
});

test('the clock is virtual: a minute of timers passes at once, and each case starts at 0', async () => {
  const minute = parsePlan([
    { name: 'a minute', steps: [{ wait: 60_000 }, { expect: { selector: '#clock', text: '60' } }] },
    { name: 'again from 0', steps: [{ wait: 2_000 }, { expect: { selector: '#clock', text: '2' } }] },
  ]);
  assert.ok('plan' in minute);
  const checks = await prepareGameChecks(runtime, { ...task, plan: minute.plan }, { audience: 'scorer', seed: 1 });
  // A real minute would run past the artifact's 30 s limit: passing at all is the clock being virtual.
  const report = await gamesPack(runtime).verify(checks, RIGHT);
  assert.equal(report.passed, true, JSON.stringify(report.failures));
});

/** Each hostile page: its status and message, then the right game on the same runtime. */
const hostile: Array<[string, string, string, RegExp]> = [
  ['loops in a click handler', counter('while (true) {}'), 'timeout', /a step took more than/],
  [
    'allocates without end',
    '<!doctype html><script>const a = []; while (true) a.push(new Array(1e6).fill(1));</script>',
    'memory',
    /ran out of memory/,
  ],
  [
    'reaches for the network',
    RIGHT.replace(
      '</body>',
      '<img src="http://192.0.2.1/x.png"><script>fetch("http://127.0.0.1:8080/")</script></body>',
    ),
    'error',
    // Whichever of the two requests the browser sends first is the one reported, not the
    // "Failed to fetch" the page then throws.
    /requested http:\/\/(192\.0\.2\.1\/x\.png|127\.0\.0\.1:8080\/)/,
  ],
  [
    'opens a WebSocket',
    RIGHT.replace('</body>', '<script>new WebSocket("ws://127.0.0.1:9/")</script></body>'),
    'error',
    /WebSocket/,
  ],
  [
    'opens a popup from a click',
    counter('window.open("http://192.0.2.1/");'),
    'error',
    /opened a window|requested|navigated/,
  ],
  ['navigates away', counter('location.href = "http://192.0.2.1/";'), 'error', /navigated to http:\/\/192\.0\.2\.1/],
  ['opens an alert', counter('alert("hi");'), 'error', /alert dialog: hi/],
  ['throws at load', '<!doctype html><script>null.x</script>', 'error', /uncaught error while loading: TypeError/],
];
for (const [what, html, status, message] of hostile) {
  test(`a page that ${what} gets status ${status}, and the next game is judged right`, async () => {
    const checks = await scorer();
    const report = await gamesPack(runtime).verify(checks, html);
    assert.equal(report.verdict.status, status, JSON.stringify(report.verdict.suites));
    assert.equal(report.passed, false);
    assert.match(JSON.stringify(report.failures), message);
    const next = await gamesPack(runtime).verify(checks, RIGHT);
    assert.equal(next.passed, true, JSON.stringify(next.failures));
  });
}

test('a plan that is not one is refused with where and why', () => {
  const bad = parsePlan([
    { name: 'x', steps: [{ click: '#a' }] },
    { name: 'y', steps: [{ tap: '#a' }] },
  ]);
  assert.ok('error' in bad);
  assert.match(bad.error, /0.*at least one expect step/);
  assert.match(bad.error, /1\.steps\.0/);
});

test('a case the reference fails is dropped from the checks, and said so', async () => {
  const wrongCase = parsePlan([
    ...plan.plan,
    { name: 'wrong case', steps: [{ click: '#inc' }, { expect: { selector: '#count', text: '7' } }] },
  ]);
  assert.ok('plan' in wrongCase);
  const checks = await prepareGameChecks(runtime, { ...task, plan: wrongCase.plan }, { audience: 'scorer', seed: 1 });
  assert.equal(checks.count, 3);
  assert.match(checks.description, /3 plan cases \(1 case the reference fails, dropped\)/);
});
