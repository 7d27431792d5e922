/**
 * Python's own tokenizer and compiler, for mutating Python references. They run in a
 * python3 process on the host, outside the sandbox: the reference is trusted dataset
 * code, and tokenizing or compiling text never executes it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PYTHON_FLAGS, resolvePython } from '../../../runtimes/recipes.js';
import type { PythonToken } from './python.js';

const HELPER = fileURLToPath(new URL('./python_tokens.py', import.meta.url));

export type TokenizeResult = readonly PythonToken[] | { readonly error: string };

export async function tokenizePython(sources: readonly string[]): Promise<TokenizeResult[]> {
  return (await callHelper({ tokenize: sources })).tokens;
}

/** Per source: does it compile (is it valid Python syntax)? */
export async function checkPythonSyntax(sources: readonly string[]): Promise<boolean[]> {
  return (await callHelper({ compile: sources })).compiles;
}

function callHelper(request: {
  tokenize?: readonly string[];
  compile?: readonly string[];
}): Promise<{ tokens: TokenizeResult[]; compiles: boolean[] }> {
  return new Promise((resolve, reject) => {
    // -I: ignore the user's environment and site; -S: no site packages (only the standard library is needed).
    const child = spawn(resolvePython(), [...PYTHON_FLAGS, HELPER], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) =>
      reject(
        new Error(
          `could not start python3 to read the references (${error.message}); install python3 or set CRUCIBLE_PYTHON`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code !== 0) {
        reject(
          new Error(
            `python3 could not tokenize the references (exit ${code}): ${Buffer.concat(err).toString().trim().split('\n').at(-1)}`,
          ),
        );
        return;
      }
      resolve(JSON.parse(Buffer.concat(out).toString('utf8')));
    });
    child.stdin.end(JSON.stringify(request));
  });
}
