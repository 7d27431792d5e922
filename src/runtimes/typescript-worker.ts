/**
 * The TypeScript compiler's own process (started by typescript-service.ts): one JSON request
 * per line on stdin, one reply per line on stdout. It exists so that a program that makes the
 * compiler slow or hungry stalls and fills this process, which has a heap cap and is killed at
 * its deadline, never Crucible's event loop.
 */
import { createInterface } from 'node:readline';
import type { CompilerReply, CompilerRequest } from './protocol.js';
import { instrumentForCoverage } from './instrument.js';
import { transpile, typeCheck } from './typescript.js';

/** `request` is Crucible's own line (typescript-service.ts), parsed but not checked. */
function answer(request: CompilerRequest): CompilerReply {
  switch (request.op) {
    case 'ping':
      return { op: 'pong' };
    case 'transpile': {
      const { code, errors } = transpile(String(request.source), String(request.fileName));
      return { op: 'transpiled', code, errors: [...errors] };
    }
    case 'check':
      return {
        op: 'checked',
        errors: typeCheck(String(request.program), typeof request.extra === 'string' ? request.extra : undefined),
      };
    case 'instrument': {
      const { errors, ...instrumented } = instrumentForCoverage(String(request.source), request.typescript === true);
      return { op: 'instrumented', ...instrumented, errors: [...errors] };
    }
    default:
      return { op: 'failed', message: `unknown op ${String((request as { op: unknown }).op)}` };
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let reply: CompilerReply;
  try {
    reply = answer(JSON.parse(line) as CompilerRequest);
  } catch (error) {
    // The compiler itself can throw on a hostile program (a stack overflow in deep nesting).
    reply = { op: 'failed', message: String(error).slice(0, 500) };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
