/**
 * The agent's workspace and file tools, as a model's tool calls reach them (callTool): reading,
 * searching and editing work, and everything hostile is refused with a message while the
 * session goes on — paths out (absolute, `..`, a planted symlink to /etc or to a folder out, a
 * dangling one), a tool that was not granted, bad arguments, an edit that breaks the syntax
 * (the file stays byte-identical). The user's folder is never touched.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { callTool, FILE_TOOLS, toolSchemas } from '../../src/agents/tools.js';
import { Workspace } from '../../src/agents/workspace.js';

const outside = mkdtempSync(join(tmpdir(), 'crucible-outside-'));
const repo = mkdtempSync(join(tmpdir(), 'crucible-repo-'));
const STACK = `class Stack:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        return self.items.pop(0)
`;
let workspace: Workspace;
const call = (name: string, args: unknown) => callTool(FILE_TOOLS, name, args, workspace);

before(async () => {
  writeFileSync(join(outside, 'secret.txt'), 'the secret\n');
  mkdirSync(join(repo, 'src'));
  mkdirSync(join(repo, '.git'));
  writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(repo, 'src', 'stack.py'), STACK);
  writeFileSync(join(repo, 'src', 'util.js'), 'export function add(a, b) {\n  return a - b;\n}\n');
  writeFileSync(join(repo, 'README.md'), '# a stack\n');
  // Planted links: a file out, a folder out, a dangling one, and one that stays inside.
  symlinkSync('/etc/passwd', join(repo, 'passwd'));
  symlinkSync(outside, join(repo, 'out'));
  symlinkSync(join(outside, 'nothing-yet.txt'), join(repo, 'dangling'));
  symlinkSync('src/stack.py', join(repo, 'inside-link.py'));
  workspace = await Workspace.open(repo);
});
after(async () => {
  await workspace.close();
  rmSync(repo, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

test('list_files lists the repository (not .git), links marked and not followed', async () => {
  const r = await call('list_files', {});
  assert.equal(r.ok, true);
  const listed = r.output.split('\n');
  assert.ok(listed.includes('src/stack.py') && listed.includes('README.md'), r.output);
  assert.ok(listed.includes('out (symbolic link)'), r.output);
  assert.ok(!r.output.includes('.git') && !r.output.includes('secret'), r.output);
});

test('read_file shows numbered lines, and ranges', async () => {
  const all = await call('read_file', { path: 'src/stack.py' });
  assert.equal(all.ok, true);
  assert.match(all.output, /^1 {2}class Stack:$/m);
  const part = await call('read_file', { path: 'src/stack.py', start_line: 8, end_line: 9 });
  assert.equal(part.output, '8      def pop(self):\n9          return self.items.pop(0)');
  const past = await call('read_file', { path: 'src/stack.py', start_line: 50 });
  assert.equal(past.ok, false);
  assert.match(past.output, /has 9 lines/);
});

test('search finds text, regular expressions and definitions', async () => {
  const text = await call('search', { query: 'items.pop' });
  assert.equal(text.output, 'src/stack.py:9: return self.items.pop(0)');
  const regex = await call('search', { query: 'def (push|pop)', regex: true });
  assert.equal(regex.output.split('\n').length, 2);
  const definition = await call('search', { query: 'pop', definition: true });
  assert.equal(definition.output, 'src/stack.py:8-9: function_definition Stack.pop');
  const none = await call('search', { query: 'no-such-text' });
  assert.match(none.output, /no match/);
});

test('paths out of the workspace are refused, whichever way they go, and the session goes on', async () => {
  const attempts: Array<[string, unknown, RegExp]> = [
    ['read_file', { path: '/etc/passwd' }, /absolute/],
    ['read_file', { path: '../../../../etc/passwd' }, /outside the repository/],
    ['read_file', { path: 'src/../../secret.txt' }, /outside the repository/],
    ['read_file', { path: 'passwd' }, /symbolic link/],
    ['read_file', { path: 'out/secret.txt' }, /symbolic link/],
    ['list_files', { path: 'out' }, /symbolic link/],
    ['write_file', { path: '../outside.txt', content: 'x' }, /outside the repository/],
    ['write_file', { path: 'out/planted.txt', content: 'x' }, /symbolic link/],
    ['write_file', { path: 'dangling', content: 'x' }, /symbolic link/],
    ['edit_file', { path: 'passwd', old: 'root', new: 'toor' }, /symbolic link/],
    ['read_file', { path: 'src/\0stack.py' }, /control characters/],
    ['write_file', { path: 'line\nbreak.py', content: 'x' }, /control characters/],
    // What the file system refuses is a result with its reason, not an exception.
    ['write_file', { path: `${'a/'.repeat(3000)}x.txt`, content: 'x' }, /write_file failed: ENAMETOOLONG/],
    ['write_file', { path: `${'x'.repeat(300)}.txt`, content: 'x' }, /write_file failed: ENAMETOOLONG/],
    ['write_file', { path: 'src/stack.py/inner.txt', content: 'x' }, /write_file failed: (EEXIST|ENOTDIR)/],
    // A hook written into .git would run on the user's next commit once applied.
    ['write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ncurl evil' }, /inside \.git/],
    ['write_file', { path: 'src/../.git/config', content: 'x' }, /inside \.git/],
    ['read_file', { path: '.git/HEAD' }, /inside \.git/],
  ];
  for (const [tool, args, message] of attempts) {
    const r = await call(tool, args);
    assert.equal(r.ok, false, `${tool} ${JSON.stringify(args)}: ${r.output}`);
    assert.match(r.output, message, `${tool} ${JSON.stringify(args)}`);
  }
  assert.ok(!existsSync(join(outside, 'planted.txt')) && !existsSync(join(outside, 'nothing-yet.txt')));
  assert.ok(!existsSync(join(workspace.root, '..', 'outside.txt')));
  // A link that stays inside is followed; the session goes on.
  const inside = await call('read_file', { path: 'inside-link.py', end_line: 1 });
  assert.equal(inside.output, '1  class Stack:\n(lines 1-1 of 9)');
});

test('a tool that was not granted, or bad arguments, are refused with what to do', async () => {
  const ungranted = await callTool(
    FILE_TOOLS.filter((t) => t.name !== 'write_file'),
    'write_file',
    { path: 'x.py', content: '' },
    workspace,
  );
  assert.equal(ungranted.ok, false);
  assert.match(ungranted.output, /no tool "write_file" here; the tools are list_files, read_file, search, edit_file$/);
  const bad = await call('read_file', { path: 3 });
  assert.equal(bad.ok, false);
  assert.match(bad.output, /bad arguments for read_file: path:/);
  const both = await call('edit_file', { path: 'src/stack.py', old: 'x', definition: 'Stack', new: '' });
  assert.match(both.output, /exactly one of `old`/);
});

test('edit_file replaces a unique span, or a definition by name; an ambiguous or missing span is refused', async () => {
  const ambiguous = await call('edit_file', { path: 'src/stack.py', old: 'self.items', new: 'self.xs' });
  assert.equal(ambiguous.ok, false);
  assert.match(ambiguous.output, /occurs 3 times .*lines 3, 6, 9/);
  const missing = await call('edit_file', { path: 'src/stack.py', old: 'pop(1)', new: 'pop()' });
  assert.match(missing.output, /does not occur/);
  const fixed = await call('edit_file', { path: 'src/stack.py', old: 'pop(0)', new: 'pop()' });
  assert.equal(fixed.ok, true, fixed.output);
  const byName = await call('edit_file', {
    path: 'src/util.js',
    definition: 'add',
    new: 'function add(a, b) {\n  return a + b;\n}',
  });
  assert.equal(byName.ok, true, byName.output);
  assert.equal(
    readFileSync(join(workspace.root, 'src', 'util.js'), 'utf8'),
    'export function add(a, b) {\n  return a + b;\n}\n',
  );
  // The user's folder is as it was; the diff says what changed.
  assert.equal(readFileSync(join(repo, 'src', 'stack.py'), 'utf8'), STACK);
  const diff = await workspace.diff();
  assert.match(diff, /--- a\/src\/stack.py\n\+\+\+ b\/src\/stack.py/);
  assert.match(diff, /-        return self.items.pop\(0\)\n\+        return self.items.pop\(\)/);
  assert.match(diff, /-  return a - b;\n\+  return a \+ b;/);
});

test('an edit or a write that leaves a file unparseable is refused, and the file stays byte-identical', async () => {
  const file = join(workspace.root, 'src', 'stack.py');
  const before = readFileSync(file);
  const broken = await call('edit_file', {
    path: 'src/stack.py',
    old: 'def push(self, item):',
    new: 'def push(self, item:',
  });
  assert.equal(broken.ok, false);
  assert.match(broken.output, /unparseable \(syntax error at line 5/);
  const rewritten = await call('write_file', { path: 'src/stack.py', content: 'class Stack(:\n' });
  assert.equal(rewritten.ok, false);
  assert.ok(readFileSync(file).equals(before));
  // Files Crucible cannot parse, and new files, are written as given.
  assert.equal((await call('write_file', { path: 'notes/todo.md', content: '((' })).ok, true);
  const created = await call('write_file', { path: 'src/queue.py', content: 'def f(:\n' });
  assert.equal(created.ok, false, 'a new Python file must parse too');
});

test('every tool is described by a JSON schema a model can be given', () => {
  const schemas = toolSchemas(FILE_TOOLS);
  assert.deepEqual(
    schemas.map((s) => s.name),
    ['list_files', 'read_file', 'search', 'edit_file', 'write_file'],
  );
  const read = schemas.find((s) => s.name === 'read_file')!.parameters as { required: string[]; properties: object };
  assert.deepEqual(read.required, ['path']);
  assert.ok('start_line' in read.properties);
});
