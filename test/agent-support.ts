/** What the agent tests share: a tiny repository whose one test fails until `top` returns the last item. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A folder removed when the test file ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** stack.py with `top` returning the first item, and a unittest file that wants the last. */
export function stackRepo(): string {
  const dir = tempDir('crucible-agent-repo-');
  writeFileSync(join(dir, 'stack.py'), 'def top(items):\n    """The last item pushed."""\n    return items[0]\n');
  writeFileSync(
    join(dir, 'test_stack.py'),
    'import unittest\nfrom stack import top\n\nclass TopTest(unittest.TestCase):\n    def test_last(self):\n        self.assertEqual(top([1, 2, 3]), 3)\n',
  );
  return dir;
}
