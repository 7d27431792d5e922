import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { after, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseJsonlLine, readJsonlLines } from './jsonl.js';
import { Fixtures } from './testing.js';

const files = new Fixtures();
after(() => files.cleanup());

test('lines keep their numbers; blank lines, CRLF and a BOM are handled', async () => {
  const path = await files.write('a.jsonl', ['\ufeff{"a": 1}\r', '', '   ', '{"a": 2}']);
  const lines = await readJsonlLines(path);
  assert.deepEqual(lines, [
    { lineNo: 1, text: '{"a": 1}' },
    { lineNo: 4, text: '{"a": 2}' },
  ]);
});

test('gzip is recognised by content, whatever the name', async () => {
  const path = await files.write('plain-name.jsonl', []);
  await writeFile(path, gzipSync('{"a": 1}\n'));
  assert.deepEqual(await readJsonlLines(path), [{ lineNo: 1, text: '{"a": 1}' }]);
  const gz = await files.write('not-really.jsonl.gz', []);
  await writeFile(gz, '{"b": 2}\n');
  assert.deepEqual(await readJsonlLines(gz), [{ lineNo: 1, text: '{"b": 2}' }]);
  const broken = await files.write('broken.jsonl.gz', []);
  await writeFile(broken, gzipSync('{"a": 1}\n').subarray(0, 12));
  await assert.rejects(readJsonlLines(broken), /cannot decompress gzip data/);
});

test('parse errors name the file and line', () => {
  assert.throws(
    () => parseJsonlLine('f.jsonl', { lineNo: 7, text: '{"a": [1,' }),
    /^Error: f\.jsonl:7: malformed JSON line: /,
  );
  const record = parseJsonlLine('f.jsonl', { lineNo: 3, text: '{"a": [1.0], "b": NaN}' }, ['a']);
  assert.equal(record.lineNo, 3);
  assert.equal(record.raw.a, '[1.0]');
  assert.ok(Number.isNaN(record.values.b));
});
