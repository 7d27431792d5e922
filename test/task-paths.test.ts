/**
 * Paths a task file gives (a docs task's `assets`, an SQL task's `database`, the databases a
 * Spider/BIRD split or a text2sql-data file names) are files in the task file's own folder or
 * below it: an absolute path, a `..` that climbs out, or a symbolic link that points out is
 * refused, naming the line, the value and what to do; nothing outside is read. After each
 * refusal a good task line still reads, and its database judges a right query pass and a
 * wrong one fail (the docs pack serving a file asset to a page is in pack-docs.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { readDocTasks } from '../src/domains/docs/task.js';
import { readSqlTasks, sqlPack, type SqlTask } from '../src/domains/sql/index.js';
import { SqlRunner } from '../src/runtimes/sql-pool.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'crucible-task-paths-')));
const outside = join(root, 'outside');
const folder = join(root, 'tasks');
mkdirSync(outside);
mkdirSync(join(folder, 'sub'), { recursive: true });
after(() => rmSync(root, { recursive: true, force: true }));

/** The host's files a task must not reach. */
const SECRET = 'the host’s secret, not an asset';
writeFileSync(join(outside, 'secret.txt'), SECRET);
const sqlite = (file: string, rows: string) => {
  const db = new Database(file);
  db.exec(`CREATE TABLE t (name TEXT, n INTEGER); INSERT INTO t VALUES ${rows};`);
  db.close();
};
sqlite(join(outside, 'secret.sqlite'), "('secret', 1)");
mkdirSync(join(outside, 'evil'));
sqlite(join(outside, 'evil', 'evil.sqlite'), "('secret', 1)");
// The task folder's own files, and links that stay in it or lead out.
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
writeFileSync(join(folder, 'logo.png'), LOGO);
sqlite(join(folder, 'shop.sqlite'), "('apple', 3), ('pear', 7), ('plum', 7)");
symlinkSync(join(outside, 'secret.txt'), join(folder, 'link-out.png'));
symlinkSync('logo.png', join(folder, 'link-in.png'));
symlinkSync('../outside/secret.sqlite', join(folder, 'link-out.sqlite'));
mkdirSync(join(folder, 'database', 'shop'), { recursive: true });
sqlite(join(folder, 'database', 'shop', 'shop.sqlite'), "('apple', 3), ('pear', 7), ('plum', 7)");
symlinkSync(join(outside, 'evil'), join(folder, 'database', 'evil'));

/** The error `read` throws; what it read instead, if it reads (a hostile test fails saying what leaked). */
function refusal(read: () => unknown, shown: (value: any) => unknown): Error {
  let value: unknown;
  try {
    value = read();
  } catch (error) {
    return error as Error;
  }
  assert.fail(`not refused: it read ${JSON.stringify(shown(value))}`);
}

let n = 0;
/** A task file of these lines in the task folder. */
function taskFile(lines: unknown[], name = `t${n++}.jsonl`): string {
  const file = join(folder, name);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

const OUT = [
  ['an absolute path', join(outside, 'secret.txt'), /", an absolute path\./],
  ['a .. that climbs out', '../outside/secret.txt', /leads out of the task file’s folder/],
  ['a deeper .. that climbs out', 'sub/../../outside/secret.txt', /leads out of the task file’s folder/],
  ['a symbolic link that points out', 'link-out.png', /leads out of the task file’s folder.*symbolic link/],
] as const;

describe('docs assets', () => {
  const docsLine = (asset: string) => ({
    task_id: 'docs/logo',
    domain: 'docs',
    prompt: 'A note with the logo.',
    assets: { 'logo.png': asset },
  });
  /** A good line reads: the file's own bytes, a link inside the folder, a data: URI. */
  const goodLineReads = () => {
    const [task] = readDocTasks(
      taskFile([
        {
          ...docsLine('logo.png'),
          assets: { 'logo.png': 'sub/../logo.png', 'same.png': 'link-in.png', 'dot.svg': 'data:image/svg+xml,<svg/>' },
        },
      ]),
    );
    assert.deepEqual(Buffer.from(task!.assets.get('logo.png')!.body), LOGO);
    assert.deepEqual(Buffer.from(task!.assets.get('same.png')!.body), LOGO);
    assert.equal(Buffer.from(task!.assets.get('dot.svg')!.body).toString(), '<svg/>');
    assert.equal(task!.assets.get('dot.svg')!.contentType, 'image/svg+xml');
  };

  for (const [kind, value, why] of OUT)
    it(`${kind} is refused, saying where and what to do; a good line still reads`, () => {
      const file = taskFile([docsLine(value)]);
      const error = refusal(
        () => readDocTasks(file),
        (tasks) => Buffer.from(tasks[0].assets.get('logo.png').body).toString(),
      );
      assert.ok(error.message.startsWith(`${file}:1: asset logo.png is ${JSON.stringify(value)}`), error.message);
      assert.match(error.message, why);
      assert.match(error.message, /relative to it.*data: URI/);
      assert.ok(!error.message.includes(SECRET));
      goodLineReads();
    });

  it('a missing file says where it looked; a folder is not a file', () => {
    assert.throws(
      () => readDocTasks(taskFile([docsLine('nope.png')])),
      /asset logo\.png is "nope\.png", which does not exist \(looked at .*tasks\/nope\.png\)/,
    );
    assert.throws(() => readDocTasks(taskFile([docsLine('sub')])), /asset logo\.png is "sub", which is not a file/);
    goodLineReads();
  });
});

describe('SQL databases', () => {
  const runner = new SqlRunner({ workers: 1 });
  after(() => runner.close());
  const sqlLine = (database: string) => ({
    task_id: 'shop/most',
    domain: 'sql',
    database,
    question: 'Which fruit sell most?',
    reference: 'SELECT name FROM t WHERE n = (SELECT max(n) FROM t) ORDER BY name',
  });
  const goodLineReads = (): SqlTask => {
    const [task] = readSqlTasks(taskFile([sqlLine('shop.sqlite')]));
    assert.deepEqual(task!.database, { kind: 'file', path: join(folder, 'shop.sqlite') });
    return task!;
  };

  const SQL_OUT = [
    ['an absolute path', join(outside, 'secret.sqlite'), /", an absolute path\./],
    ['a .. that climbs out', '../outside/secret.sqlite', /leads out of the task file’s folder/],
    ['a symbolic link that points out', 'link-out.sqlite', /leads out of the task file’s folder.*symbolic link/],
  ] as const;
  for (const [kind, value, why] of SQL_OUT)
    it(`"database": ${kind} is refused, saying where and what to do; a good line still reads`, () => {
      const file = taskFile([sqlLine(value)]);
      const error = refusal(
        () => readSqlTasks(file),
        (tasks) => tasks[0].database,
      );
      assert.ok(error.message.startsWith(`${file}:1: the database is ${JSON.stringify(value)}`), error.message);
      assert.match(error.message, why);
      assert.match(error.message, /relative to it/);
      goodLineReads();
    });

  it('a Spider split: a db_id that climbs out, or a database folder that links out, is refused; its own databases read', () => {
    const spider = (db_id: string) => [{ db_id, question: 'How many?', query: 'SELECT count(*) FROM t' }];
    const climbing = join(folder, 'climbing.json');
    writeFileSync(climbing, JSON.stringify(spider('../../outside/secret')));
    assert.match(
      refusal(
        () => readSqlTasks(climbing),
        (tasks) => tasks[0].database,
      ).message,
      /entry 0 \(\.\.\/\.\.\/outside\/secret\).*leads out of the task file’s folder/,
    );
    const linked = join(folder, 'linked.json');
    writeFileSync(linked, JSON.stringify(spider('evil')));
    assert.match(
      refusal(
        () => readSqlTasks(linked),
        (tasks) => tasks[0].database,
      ).message,
      /entry 0 \(evil\).*leads out of the task file’s folder.*symbolic link/,
    );
    const own = join(folder, 'dev.json');
    writeFileSync(own, JSON.stringify(spider('shop')));
    const [task] = readSqlTasks(own);
    assert.deepEqual(task!.database, { kind: 'file', path: join(folder, 'database', 'shop', 'shop.sqlite') });
  });

  it('a text2sql-data file: a database beside it that links out is refused; a real one reads', () => {
    const dir = join(folder, 'text2sql');
    mkdirSync(dir);
    const entries = [
      { sql: ['SELECT name FROM t WHERE n = 7'], sentences: [{ text: 'which have 7', variables: {} }], variables: [] },
    ];
    writeFileSync(join(dir, 'fruit.json'), JSON.stringify(entries));
    symlinkSync(join(outside, 'secret.sqlite'), join(dir, 'fruit-db.sqlite'));
    assert.match(
      refusal(
        () => readSqlTasks(join(dir, 'fruit.json')),
        (tasks) => tasks[0].database,
      ).message,
      /fruit\.json: the database is "fruit-db\.sqlite".*symbolic link/,
    );
    rmSync(join(dir, 'fruit-db.sqlite'));
    writeFileSync(join(dir, 'fruit-db.sqlite'), readFileSync(join(folder, 'shop.sqlite')));
    const [task] = readSqlTasks(join(dir, 'fruit.json'));
    assert.deepEqual(task!.database, { kind: 'file', path: join(dir, 'fruit-db.sqlite') });
  });

  it('after the refusals, a good line’s database judges a right query pass and a wrong one fail', async () => {
    const pack = sqlPack(runner);
    const checks = await pack.prepare(goodLineReads(), { audience: 'scorer', seed: 1 });
    const right = await pack.verify(checks, 'SELECT t.name FROM t WHERE t.n IN (SELECT max(n) FROM t) ORDER BY 1');
    assert.equal(right.passed, true, JSON.stringify(right.failures));
    // Right on the task's database, where the most is 7: wrong on a generated one.
    const wrong = await pack.verify(checks, 'SELECT name FROM t WHERE n >= 7 ORDER BY name');
    assert.equal(wrong.passed, false);
  });
});

describe('the helper, for any future pack', () => {
  const where = { folder, where: 'pack.jsonl:4', what: 'the model' };
  it('resolves under the folder to the real file, and refuses what leads out', async () => {
    const { pathInTaskFolder } = await import('../src/domains/task-paths.js');
    assert.equal(pathInTaskFolder('sub/../logo.png', where), join(folder, 'logo.png'));
    assert.equal(pathInTaskFolder('link-in.png', where), join(folder, 'logo.png'), 'a link inside is its target');
    assert.throws(
      () => pathInTaskFolder('/etc/passwd', where),
      /^BadRequestError: pack\.jsonl:4: the model is "\/etc\/passwd", an absolute path/,
    );
    assert.throws(() => pathInTaskFolder('..', where), /leads out/);
    assert.throws(() => pathInTaskFolder('', where), /is empty/);
    // Out of the folder is refused before it is looked at: the answer does not tell what exists outside.
    const missing = refusal(() => pathInTaskFolder('../outside/none', where), String).message;
    const present = refusal(() => pathInTaskFolder('../outside/secret.txt', where), String).message;
    assert.equal(missing.replace('none', 'X'), present.replace('secret.txt', 'X'));
  });
});
