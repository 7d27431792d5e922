/**
 * dccd: a free draft, then the final answer under a JSON schema (in-memory model) or a GBNF
 * grammar (tiny local GGUF), judged by crucible/testing's in-memory runtime.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createModel } from '../src/models/index.js';
import { CODE_JSON_GBNF, codeSubject, dccd, memoryTrace } from '../src/strategies/index.js';
import { inMemoryHarness, writeTinyGguf, type InMemoryRuntime } from '../src/testing/index.js';
import type { Harness } from '../src/domains/code/harness.js';
import { builtin, fenced, scriptedInMemoryModel, standInRuntime } from './strategies-support.js';

let runtime: InMemoryRuntime;
let harness: Harness;
before(() => {
  runtime = standInRuntime();
  harness = inMemoryHarness(runtime);
});
after(() => harness.close());

const lru = builtin('builtin/py/lru-misses');

test('dccd: the final answer is the structured code, decoded after (and conditioned on) the draft', async () => {
  const draft = `Cases: capacity 0 means every access misses.\n${fenced(lru.program('capacity-zero-crash'))}`;
  const model = scriptedInMemoryModel({ programs: [draft], structured: [JSON.stringify({ code: lru.reference })] });
  const trace = memoryTrace();
  const result = await dccd(codeSubject(harness, lru.task), { model, budget: { modelCalls: 4 }, trace, seed: 1 });
  assert.equal(result.status, 'verified', result.reason);
  assert.equal(result.program, lru.reference, 'the structured answer, not the draft’s code');
  const [first, second] = model.requests;
  assert.equal(first!.responseFormat, undefined, 'the draft is free');
  assert.equal(second!.responseFormat?.type, 'json');
  assert.deepEqual((second!.responseFormat?.schema as { required?: string[] }).required, ['code']);
  const assistant = second!.messages.find((m) => m.role === 'assistant');
  assert.equal(assistant?.content, draft, 'the final answer sees the draft');
  const candidate = trace.events.find((e) => e.kind === 'candidate')!;
  assert.equal(candidate.label, 'final');
});

test(
  'dccd on a local GGUF model: the final answer is decoded under the {"code": ...} grammar',
  { timeout: 120_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crucible-dccd-'));
    const path = join(dir, 'tiny.gguf');
    writeTinyGguf(path);
    const config = {
      models: { tiny: { spec: `gguf:${path}`, gpu: false, threads: 1, contextSize: 2048 } },
      prices: {},
    };
    const model = await createModel('tiny', { config, env: {}, cache: 'off' });
    try {
      const trace = memoryTrace();
      const runsBefore = runtime.runs.length;
      // Random weights write nonsense, which the stand-in runtime does not load; what is checked is that the decoder kept to the grammar.
      const result = await dccd(codeSubject(harness, lru.task), {
        model,
        budget: { modelCalls: 4 },
        trace,
        seed: 3,
        options: { maxTokens: 24 },
      });
      assert.notEqual(result.status, 'verified');
      const prompts = trace.events.filter((e) => e.kind === 'prompt');
      assert.equal(
        (prompts[1]!.data as unknown as { settings: { grammar?: string } }).settings.grammar,
        CODE_JSON_GBNF,
      );
      const finals = trace.events.filter((e) => e.kind === 'response' && e.label === 'final');
      const text = (finals[0]!.data as { texts: string[] }).texts[0]!;
      assert.ok(text.startsWith('{"code": "'), `grammar-decoded text: ${JSON.stringify(text)}`);
      assert.ok(runtime.runs.length > runsBefore, 'the checks ran on the in-memory runtime');
    } finally {
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
