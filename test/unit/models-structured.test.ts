/**
 * Structured output on the Model layer, over the fake OpenAI-compatible server. What every
 * backend does (a valid reply validated, one repair, the schema sent, grammars refused where
 * not supported) is in the model-backend contract (test/contracts/backend-contract.ts).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { createModel } from '../../src/models/model.js';
import { fixture, user, type Fixture } from '../models-support.js';

let f: Fixture;
before(async () => {
  f = await fixture();
});
after(() => f.close());

const Answer = z.object({ program: z.string(), confidence: z.number().min(0).max(1) });

test('the schema goes out as response_format json_schema, under the name given', async () => {
  f.server.enqueue('{"program": "print(1)", "confidence": 0.8}');
  const model = await f.model({ cache: 'off' });
  const before = f.server.requests.length;
  await model.generate({ messages: user('answer'), output: { schema: Answer, name: 'answer' } });
  const format = f.server.requests[before]!.body.response_format;
  assert.equal(format.type, 'json_schema');
  assert.equal(format.json_schema.name, 'answer');
});

test('when the repair fails too, the completion carries the error and no value', async () => {
  f.server.enqueue('not json at all', '{"program": 3}');
  const model = await f.model({ cache: 'off' });
  const result = await model.generate({ messages: user('answer'), output: { schema: Answer } });
  const completion = result.completions[0]!;
  assert.equal(completion.value, undefined);
  assert.equal(completion.repaired, true);
  assert.match(completion.outputError!, /at \$\.program/);
});

test('a JSON Schema object is enforced too: an integer field rejects 1.5 and an exponent-free check passes 2', async () => {
  const schema = {
    type: 'object',
    properties: { count: { type: 'integer' } },
    required: ['count'],
    additionalProperties: false,
  };
  f.server.enqueue('{"count": 1.5}', '```json\n{"count": 2}\n```');
  const model = await f.model({ cache: 'off' });
  const result = await model.generate({ messages: user('count'), output: { schema } });
  assert.deepEqual(result.completions[0]!.value, { count: 2 });
  assert.equal(result.completions[0]!.repaired, true);
});

test('each of n completions is validated and repaired on its own', async () => {
  f.server.enqueue(
    '{"program": "a", "confidence": 0.1}',
    '{"program": "b"}',
    '{"program": "c", "confidence": 0.3}',
    '{"program": "b", "confidence": 0.2}',
  );
  const model = await f.model({ cache: 'off' });
  const result = await model.generate({ messages: user('three'), n: 3, output: { schema: Answer } });
  assert.deepEqual(
    result.completions.map((c) => (c.value as { program: string }).program),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(
    result.completions.map((c) => Boolean(c.repaired)),
    [false, true, false],
  );
});

test('an endpoint configured for JSON mode gets json_object, and the reply is still validated', async () => {
  const model = await createModel('jsonmode', {
    config: { models: { jsonmode: { spec: f.spec, capabilities: { structuredOutput: 'json-mode' } } }, prices: {} },
    env: {},
    cache: 'off',
  });
  f.server.enqueue('{"program": "x", "confidence": 0.5}');
  const before = f.server.requests.length;
  const result = await model.generate({ messages: user('json mode'), output: { schema: Answer } });
  assert.deepEqual(f.server.requests[before]!.body.response_format, { type: 'json_object' });
  assert.deepEqual(result.completions[0]!.value, { program: 'x', confidence: 0.5 });
});

test('a grammar is sent to a server configured as llama.cpp', async () => {
  const llamacpp = await createModel('lc', {
    config: { models: { lc: { spec: f.spec, capabilities: { grammar: 'llama.cpp' } } }, prices: {} },
    env: {},
    cache: 'off',
  });
  f.server.enqueue('yes');
  const before = f.server.requests.length;
  await llamacpp.generate({ messages: user('g'), grammar: 'root ::= "yes"' });
  assert.equal(f.server.requests[before]!.body.grammar, 'root ::= "yes"');
});
