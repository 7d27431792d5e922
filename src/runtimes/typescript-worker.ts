/**
 * The TypeScript compiler's own process (started by typescript-service.ts): one JSON request
 * per line on stdin, one reply per line on stdout. It exists so that a program that makes the
 * compiler slow or hungry stalls and fills this process, which has a heap cap and is killed at
 * its deadline, never Crucible's event loop.
 */
import { createInterface } from 'node:readline';
import { transpile, typeCheck } from './typescript.js';

function answer(request: { op?: unknown; source?: unknown; fileName?: unknown; program?: unknown; extra?: unknown }): object {
  if (request.op === 'ping') return { op: 'pong' };
  if (request.op === 'transpile') return { op: 'transpiled', ...transpile(String(request.source), String(request.fileName)) };
  if (request.op === 'check') {
    return { op: 'checked', errors: typeCheck(String(request.program), typeof request.extra === 'string' ? request.extra : undefined) };
  }
  return { op: 'error', message: `unknown op ${String(request.op)}` };
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let reply: object;
  try {
    reply = answer(JSON.parse(line));
  } catch (error) {
    // The compiler itself can throw on a hostile program (a stack overflow in deep nesting).
    reply = { op: 'failed', message: String(error).slice(0, 500) };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
