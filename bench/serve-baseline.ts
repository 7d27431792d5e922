/**
 * The baseline for `npm run bench:serve`: a naive /run_code server that spawns a fresh
 * `python3` per request (SandboxFusion's `none` isolation: a plain subprocess, no
 * sandbox, which favours the baseline). Same request and response shape as Crucible's.
 * Usage: node --import tsx bench/serve-baseline.ts PORT
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { resolvePython } from '../src/runtimes/recipes.js';

const port = Number(process.argv[2] ?? 8090);
/** The real interpreter (a pyenv shim on PATH would add its own start-up to every request). */
const python = resolvePython();
const CAP = 1 << 20;

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body: { code?: string; stdin?: string; run_timeout?: number };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString());
    } catch {
      res.writeHead(400).end('{"error":"bad json"}');
      return;
    }
    const started = performance.now();
    const child = spawn(python, ['-c', body.code ?? ''], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => void (stdout.length < CAP && (stdout += c)));
    child.stderr.on('data', (c: Buffer) => void (stderr.length < CAP && (stderr += c)));
    const timer = setTimeout(() => child.kill('SIGKILL'), (body.run_timeout ?? 10) * 1000);
    child.stdin.on('error', () => undefined);
    child.stdin.end(body.stdin ?? '');
    child.on('close', (code) => {
      clearTimeout(timer);
      const ok = code === 0;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          status: ok ? 'Success' : 'Failed',
          message: '',
          compile_result: null,
          run_result: {
            status: 'Finished',
            execution_time: (performance.now() - started) / 1000,
            return_code: code,
            stdout,
            stderr,
          },
          executor_pod_name: null,
          files: {},
        }),
      );
    });
  });
}).listen(port, '127.0.0.1', () => process.stderr.write(`baseline listening on ${port}\n`));
