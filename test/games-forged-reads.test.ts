/**
 * A game cannot answer its own judge: each page below has no game logic (its button does
 * nothing) and patches one API a reader of the DOM could use — prototypes, an instance's own
 * getter, a Proxy in place of the elements, a DOM written just in time for the read, `innerText`
 * for selection — to show what the plan expects. The judge reads in its own world, so each page
 * fails as the plain broken game does, and the right game judged next passes.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { gamesPack, prepareGameChecks, type GameTask } from '../src/domains/games/index.js';
import { parsePlan } from '../src/domains/games/plan.js';

const runtime = new BrowserRuntime({ heapMb: 128 });
after(() => runtime.close());

/** A lamp: the switch turns it on (text, attribute, visibility); `logic` false: the switch does nothing. */
const lamp = (logic: boolean, forgery = '') => `<!doctype html>
<html><body>
<button id="switch">switch</button>
<p id="state" data-on="false">off</p>
<div id="glow" hidden>glowing</div>
<script>
  const state = document.getElementById('state');
  const glow = document.getElementById('glow');
  let on = false;
  document.getElementById('switch').addEventListener('click', () => {
    window.switched = true;
    ${logic ? "on = !on; state.textContent = on ? 'on' : 'off'; state.dataset.on = String(on); glow.hidden = !on;" : ''}
  });
  ${forgery}
</script>
</body></html>`;
const RIGHT = lamp(true);
const BROKEN = lamp(false);

const plan = parsePlan([
  { name: 'the text says on', steps: [{ click: '#switch' }, { expect: { selector: '#state', text: 'on' } }] },
  {
    name: 'the attribute says on',
    steps: [{ click: '#switch' }, { expect: { selector: '#state', attr: { 'data-on': 'true' } } }],
  },
  { name: 'the glow shows', steps: [{ click: '#switch' }, { expect: { selector: '#glow', visible: true } }] },
]);
assert.ok('plan' in plan);
const task: GameTask = { id: 'games/lamp', prompt: 'A lamp with a switch.', plan: plan.plan, reference: RIGHT };

/** What each forger makes a reader see once the switch was clicked: the plan's answers. */
const FORGED = `const forged = { text: 'on', attr: 'true', visible: true };
  const lies = (el) => window.switched && el && (el.id === 'state' || el.id === 'glow');`;

const forgeries: Array<[string, string]> = [
  [
    'patches the prototypes of Node and Element (textContent, getAttribute, checkVisibility)',
    `${FORGED}
  const text = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent');
  Object.defineProperty(Node.prototype, 'textContent', { get() { return lies(this) ? forged.text : text.get.call(this); }, set: text.set });
  const getAttribute = Element.prototype.getAttribute;
  Element.prototype.getAttribute = function (name) { return lies(this) && name === 'data-on' ? forged.attr : getAttribute.call(this, name); };
  const checkVisibility = Element.prototype.checkVisibility;
  Element.prototype.checkVisibility = function (o) { return lies(this) ? forged.visible : checkVisibility.call(this, o); };`,
  ],
  [
    "defines getters on the elements' own instances",
    `${FORGED}
  for (const el of [state, glow]) {
    Object.defineProperty(el, 'textContent', { get: () => (window.switched ? forged.text : 'off') });
    el.getAttribute = (name) => (window.switched && name === 'data-on' ? forged.attr : 'false');
    el.checkVisibility = () => (window.switched ? forged.visible : !el.hidden);
  }`,
  ],
  [
    'answers querySelector and querySelectorAll with Proxies of its own',
    `${FORGED}
  const fake = (el) => new Proxy(el, { get(target, key) {
    if (!window.switched) { const v = Reflect.get(target, key, target); return typeof v === 'function' ? v.bind(target) : v; }
    if (key === 'textContent') return forged.text;
    if (key === 'getAttribute') return () => forged.attr;
    if (key === 'checkVisibility') return () => forged.visible;
    const v = Reflect.get(target, key, target); return typeof v === 'function' ? v.bind(target) : v;
  } });
  const all = Document.prototype.querySelectorAll;
  Document.prototype.querySelectorAll = function (s) { return [...all.call(this, s)].map(fake); };
  const one = Document.prototype.querySelector;
  Document.prototype.querySelector = function (s) { const el = one.call(this, s); return el && fake(el); };`,
  ],
  [
    'writes the expected DOM just in time for a read, and takes it back after',
    `const all = Document.prototype.querySelectorAll;
  Document.prototype.querySelectorAll = function (s) {
    if (window.switched) {
      state.textContent = 'on'; state.dataset.on = 'true'; glow.hidden = false;
      queueMicrotask(() => { state.textContent = 'off'; state.dataset.on = 'false'; glow.hidden = true; });
    }
    return all.call(this, s);
  };`,
  ],
];

const scorer = () => prepareGameChecks(runtime, task, { audience: 'scorer', seed: 1 });

test('the lamp: the right game passes every case, the broken one fails every case', async () => {
  const checks = await scorer();
  assert.equal(checks.count, 3);
  assert.equal((await gamesPack(runtime).verify(checks, RIGHT)).passed, true);
  const broken = await gamesPack(runtime).verify(checks, BROKEN);
  assert.deepEqual(
    broken.verdict.suites.filter((s) => s.name.startsWith('plan')).map((s) => s.status),
    ['fail', 'fail', 'fail'],
  );
});

for (const [what, forgery] of forgeries) {
  test(`a page that ${what} fails as the broken game does, and the next game is judged right`, async () => {
    const checks = await scorer();
    const forged = await gamesPack(runtime).verify(checks, lamp(false, forgery));
    assert.equal(forged.passed, false, 'the forged reads were believed');
    assert.deepEqual(
      forged.reward,
      (await gamesPack(runtime).verify(checks, BROKEN)).reward,
      'the reward of the broken game',
    );
    assert.deepEqual(
      forged.verdict.suites.filter((s) => s.name.startsWith('plan')).map((s) => s.status),
      ['fail', 'fail', 'fail'],
    );
    assert.deepEqual(
      forged.failures.map((f) => f.actual),
      ['it shows "off"', 'its data-on is "false"', 'it is hidden'],
    );
    const next = await gamesPack(runtime).verify(checks, RIGHT);
    assert.equal(next.passed, true, JSON.stringify(next.failures));
  });
}

test("selection's behaviour keys read the page's real text, not a patched innerText", async () => {
  const checks = await scorer();
  const pack = gamesPack(runtime);
  const probes = pack.probes(checks).slice(0, 1);
  const innerText = `const text = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'innerText');
  Object.defineProperty(HTMLElement.prototype, 'innerText', { get() {
    return window.switched && this === document.body ? 'switch on glowing' : text.get.call(this);
  } });`;
  const behaviour = await pack.observe(checks, [RIGHT, BROKEN, lamp(false, innerText)], probes);
  const [right, broken, forged] = behaviour.keys;
  assert.notDeepEqual(right, broken);
  assert.deepEqual(forged, broken, 'the forged page is keyed by what it shows, as the broken game is');
  const next = await pack.verify(checks, RIGHT);
  assert.equal(next.passed, true);
});
