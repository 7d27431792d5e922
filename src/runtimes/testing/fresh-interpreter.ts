import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The way SandboxFusion and MultiPL-E judge: write program + tests to a file, start a
 * fresh interpreter, read the exit code (and, for console.assert, stderr). The reference
 * verdict that the benchmarks and the differential tests compare Crucible with; it runs
 * only programs we trust (dataset references and our own corpora), without a sandbox.
 */
export async function spawnPerSample(
  jobs: ReadonlyArray<{
    interpreter: string;
    args?: string[];
    source: string;
    suffix: string;
    env?: NodeJS.ProcessEnv;
  }>,
  parallel: number,
  timeoutMs = 10_000,
): Promise<boolean[]> {
  const dir = mkdtempSync(join(tmpdir(), 'crucible-baseline-'));
  const verdicts: boolean[] = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      const job = jobs[i]!;
      const file = join(dir, `sample-${i}${job.suffix}`);
      writeFileSync(file, job.source);
      verdicts[i] = await new Promise<boolean>((resolve) => {
        const child = spawn(job.interpreter, [...(job.args ?? []), file], {
          stdio: ['ignore', 'ignore', 'pipe'],
          cwd: dir,
          ...(job.env ? { env: { ...process.env, ...job.env } } : {}),
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve(code === 0 && !stderr.includes('Assertion failed'));
        });
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  rmSync(dir, { recursive: true, force: true });
  return verdicts;
}
