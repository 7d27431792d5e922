/** A mutant shown as people read patches: the changed lines, before and after. */
export function lineDiff(
  program: string,
  start: number,
  end: number,
  replacement: string,
): { line: number; diff: string } {
  const lineStart = program.lastIndexOf('\n', start - 1) + 1;
  const next = program.indexOf('\n', end);
  const lineEnd = next === -1 ? program.length : next;
  const before = program.slice(lineStart, lineEnd);
  const after = program.slice(lineStart, start) + replacement + program.slice(end, lineEnd);
  const line = program.slice(0, start).split('\n').length;
  const body = [...before.split('\n').map((l) => `-${l}`), ...after.split('\n').map((l) => `+${l}`)];
  return { line, diff: [`@@ line ${line} @@`, ...body].join('\n') };
}
