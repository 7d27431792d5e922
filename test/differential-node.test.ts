/**
 * Programs run as their language runs them: each program of a corpus that uses node's and
 * Python's everyday surface (require of built-in modules and packages, Buffer, process,
 * timers, TextEncoder, structuredClone, rebound builtins...) is judged by Crucible and by a
 * fresh interpreter running program + test, and the verdicts must agree. The few programs
 * Crucible fails on purpose (process creation, exiting early) say why in the corpus.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { judgeBothWays, NODE_API_PROGRAMS } from '../src/bench/node-api-corpus.js';
import { Harness } from '../src/domains/code/harness.js';

const nodePath = [fileURLToPath(new URL('../node_modules', import.meta.url))];
const harness = new Harness({ workers: 2, nodePath });
after(() => harness.close());

test(
  'Crucible and a fresh interpreter agree on every program of the node API corpus',
  { timeout: 300_000 },
  async () => {
    const { rows } = await judgeBothWays(NODE_API_PROGRAMS, harness, { nodePath });
    const disagreements = rows
      .filter((r) => !r.agrees)
      .map(
        (r) =>
          `${r.entry.name}: crucible ${r.crucible}, fresh ${r.fresh ? 'pass' : 'fail'}${r.message ? ` (${r.message.split('\n')[0]})` : ''}`,
      );
    assert.deepEqual(disagreements, []);
    // The corpus has both outcomes, so agreement is not a harness that says one thing.
    const passed = rows.filter((r) => r.crucible === 'pass').length;
    assert.ok(passed >= 40 && passed <= rows.length - 6, `${passed} of ${rows.length} pass`);
  },
);
