/** Specs, the config file, capabilities and prices: the pure parts of the model layer. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { capabilitiesFor, CAPABILITY_TABLE, formatCapabilityTable } from '../../src/models/capabilities.js';
import { loadConfig } from '../../src/models/config.js';
import { ModelConfigError } from '../../src/models/errors.js';
import { PriceTable } from '../../src/models/prices.js';
import { resolveModel } from '../../src/models/resolve.js';
import { parseSpec } from '../../src/models/spec.js';

test('specs: each form parses to its kind, model and canonical text', () => {
  assert.deepEqual(parseSpec('http://localhost:8000/v1#Qwen/Qwen2.5-Coder-7B-Instruct'), {
    kind: 'openai-compatible',
    modelId: 'Qwen/Qwen2.5-Coder-7B-Instruct',
    baseURL: 'http://localhost:8000/v1',
    spec: 'http://localhost:8000/v1#Qwen/Qwen2.5-Coder-7B-Instruct',
  });
  assert.equal(parseSpec('http://h:1/v1/chat/completions#m')!.baseURL, 'http://h:1/v1');
  assert.equal(parseSpec('http://h:1/v1/#m')!.spec, 'http://h:1/v1#m');
  assert.deepEqual(parseSpec('ollama:qwen2.5-coder:7b'), {
    kind: 'ollama',
    modelId: 'qwen2.5-coder:7b',
    spec: 'ollama:qwen2.5-coder:7b',
  });
  assert.equal(parseSpec('gguf:/models/a b.gguf')!.modelId, '/models/a b.gguf');
  assert.equal(parseSpec('anthropic:claude-sonnet-4-0')!.kind, 'anthropic');
  assert.equal(parseSpec('openai:gpt-4o')!.kind, 'openai');
  assert.equal(parseSpec('my-model'), undefined);
});

test('config: named models resolve with capability overrides; a bad file names the field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-config-'));
  try {
    const path = join(dir, 'crucible.config.json');
    writeFileSync(
      path,
      JSON.stringify({
        models: {
          local: { spec: 'http://127.0.0.1:8080/v1#llama', capabilities: { grammar: 'llama.cpp', nativeN: false } },
        },
        prices: { llama: { input: 0.1, output: 0.2 } },
      }),
    );
    const config = loadConfig(path);
    const resolved = resolveModel('local', config);
    assert.equal(resolved.kind, 'openai-compatible');
    assert.equal(resolved.configName, 'local');
    assert.equal(resolved.capabilities.grammar, 'llama.cpp');
    assert.equal(resolved.capabilities.nativeN, false);
    assert.equal(resolved.capabilities.seed, true, 'the rest of the row is kept');
    writeFileSync(path, JSON.stringify({ models: { bad: { spec: 'openai:x', temperature: 2 } } }));
    assert.throws(
      () => loadConfig(path),
      (error: unknown) => error instanceof ModelConfigError && /models\.bad/.test(error.message),
    );
    writeFileSync(path, '{ not json');
    assert.throws(() => loadConfig(path), /is not valid JSON/);
    assert.deepEqual(loadConfig(join(dir, 'absent.json')).models, {});
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('capabilities: each kind has a row; overrides replace single cells', () => {
  assert.equal(CAPABILITY_TABLE.gguf.grammar, 'native');
  assert.equal(CAPABILITY_TABLE.anthropic.seed, false);
  assert.equal(capabilitiesFor('openai', { logprobs: true }).logprobs, true);
  assert.equal(capabilitiesFor('openai').logprobs, false);
  const table = formatCapabilityTable();
  assert.equal(table.split('\n').length, 7);
  assert.match(table, /^gguf\s+false\s+grammar\s+native/m);
  assert.match(table, /^replay\s+true\s+json-schema\s+false/m);
});

test('prices: exact spec beats kind:model beats the bare name; paid endpoints without a price cost null', () => {
  const prices = new PriceTable({ 'openai:special': { input: 1, output: 1 }, special: { input: 5, output: 5 } });
  const usage = { inputTokens: 2_000_000, outputTokens: 1_000_000 };
  assert.equal(prices.cost('openai:special', 'openai', 'special', usage), 3);
  assert.equal(prices.cost('anthropic:special', 'anthropic', 'special', usage), 15);
  assert.equal(prices.cost('openai:unknown-model', 'openai', 'unknown-model', usage), null);
  assert.equal(prices.cost('ollama:llama3', 'ollama', 'llama3', usage), 0);
});
