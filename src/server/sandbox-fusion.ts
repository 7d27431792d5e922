/**
 * SandboxFusion's `/run_code` and `/submit`, on Crucible's runtimes. Responses keep
 * SandboxFusion's fields and rules (research/anchors-verification.md §3): HTTP 200 for
 * every outcome of the program, `status` Success | Failed | SandboxError, `run_result.status`
 * Finished | Error | TimeLimitExceeded; SandboxError only when the sandbox failed. One extra
 * field, `crucible`, carries Crucible's own status (e.g. `output-limit`, `memory`).
 */
import { fences } from '../core/fences.js';
import type { Language } from '../core/task.js';
import { DEFAULT_PROGRAM_LIMITS, type ProgramResult } from '../runtimes/program-worker.js';
import type { Executor } from '../runtimes/executor.js';
import type { RunCodeRequest, SubmitRequest } from './schemas.js';

export interface CommandRunResult {
  status: 'Finished' | 'Error' | 'TimeLimitExceeded';
  execution_time: number | null;
  return_code: number | null;
  stdout: string | null;
  stderr: string | null;
}

export interface RunCodeResponse {
  status: 'Success' | 'Failed' | 'SandboxError';
  message: string;
  compile_result: CommandRunResult | null;
  run_result: CommandRunResult | null;
  executor_pod_name: string | null;
  files: Record<string, string>;
  crucible: { status: ProgramResult['status']; message?: string };
}

/** SandboxFusion's language name → the runtime that runs it, or undefined (not run here). */
export function runtimeFor(language: string): Language | undefined {
  if (language === 'python') return 'python';
  if (language === 'nodejs' || language === 'javascript') return 'javascript';
  if (language === 'typescript') return 'typescript';
  return undefined;
}

export const SUPPORTED = ['python', 'nodejs', 'javascript', 'typescript'];

export function sandboxError(message: string): RunCodeResponse {
  return {
    status: 'SandboxError',
    message,
    compile_result: null,
    run_result: null,
    executor_pod_name: null,
    files: {},
    crucible: { status: 'no-verdict', message },
  };
}

/** The SandboxFusion response for one run. */
export function toRunCodeResponse(result: ProgramResult): RunCodeResponse {
  if (result.status === 'no-verdict') return sandboxError(result.message ?? 'the sandbox failed');
  const timeLimit = result.status === 'timeout';
  const run: CommandRunResult = {
    status: timeLimit ? 'TimeLimitExceeded' : 'Finished',
    execution_time: result.wallSeconds,
    // A program stopped by a limit did not exit by itself: SandboxFusion reports no code on a
    // timeout; for memory and output limits a non-zero code keeps verl's "runtime error".
    return_code: timeLimit
      ? null
      : result.status === 'ok'
        ? 0
        : result.exitCode || (result.signal ? 128 + result.signal : 1),
    stdout: result.stdout,
    stderr: result.stderr,
  };
  return {
    status: result.status === 'ok' ? 'Success' : 'Failed',
    message: '',
    compile_result: null,
    run_result: run,
    executor_pod_name: null,
    files: { ...result.files },
    crucible: { status: result.status, ...(result.message ? { message: result.message } : {}) },
  };
}

/** Limits from SandboxFusion's fields; interpreted languages have no compile step. */
export function limitsOf(runTimeout: number | null | undefined, memoryMb: number | null | undefined) {
  return {
    wallSeconds: runTimeout ?? DEFAULT_PROGRAM_LIMITS.wallSeconds,
    ...(memoryMb && memoryMb > 0 ? { memoryBytes: memoryMb * 2 ** 20 } : {}),
  };
}

/** `signal`: the request was abandoned (client gone, or answered 504); the program is stopped. */
export async function runCode(
  executor: Executor,
  body: RunCodeRequest,
  signal?: AbortSignal,
): Promise<RunCodeResponse> {
  const language = runtimeFor(body.language);
  if (!language)
    return sandboxError(`language ${body.language} is not run by this server (it runs ${SUPPORTED.join(', ')})`);
  const files: Record<string, string> = {};
  for (const [path, content] of Object.entries(body.files ?? {}))
    if (content !== null && content !== 'IGNORE_THIS_FILE') files[path] = content;
  const request = {
    code: body.code,
    stdin: body.stdin ?? '',
    files,
    fetchFiles: body.fetch_files ?? [],
    limits: limitsOf(body.run_timeout, body.memory_limit_MB),
  };
  const result = await executor.run({ language, request }, { signal });
  return toRunCodeResponse(result);
}

// --- /submit -------------------------------------------------------------------------

const LANGUAGE_TAGS: Record<string, string[]> = {
  python: ['python', 'py', 'python3'],
  nodejs: ['javascript', 'js', 'node', 'nodejs'],
  javascript: ['javascript', 'js', 'node', 'nodejs'],
  typescript: ['typescript', 'ts'],
};

/** SandboxFusion's order: a fenced block (in the language if there is one), an unclosed fence, the text itself. */
export function extractCode(
  completion: string,
  language: string,
): { code: string; type: 'fenced' | 'incomplete_fenced' | 'heuristic' } {
  const found = fences(completion);
  // SandboxFusion's tag: the word characters right after the fence.
  const blocks = found
    .filter((f) => f.closed)
    .map((f) => ({ tag: /^[\w+#-]*/.exec(f.info)![0].toLowerCase(), code: f.code }));
  if (blocks.length > 0) {
    const tags = LANGUAGE_TAGS[language] ?? [language];
    const chosen = blocks.find((b) => tags.includes(b.tag)) ?? blocks.find((b) => b.tag === '') ?? blocks[0]!;
    return { code: chosen.code, type: 'fenced' };
  }
  const open = found[0];
  if (open) return { code: open.code, type: 'incomplete_fenced' };
  return { code: completion, type: 'heuristic' };
}

/**
 * SandboxFusion's stdio check (utils/testing.py): line by line after stripping, ignoring
 * case, numbers equal within a relative 1e-5. Case-insensitivity is theirs (kept for
 * compatibility); /v1/verify compares exactly.
 */
export function stdioMatches(actual: string, expected: string): boolean {
  const lines = (s: string) => {
    const out = s.split('\n').map((l) => l.trim());
    while (out.length && out[out.length - 1] === '') out.pop();
    return out;
  };
  const a = lines(actual);
  const e = lines(expected);
  if (a.length !== e.length) return false;
  return a.every((line, i) => {
    const want = e[i]!;
    if (line.toLowerCase() === want.toLowerCase()) return true;
    const x = line.split(/\s+/);
    const y = want.split(/\s+/);
    return (
      x.length === y.length &&
      x.every((tok, j) => {
        const u = Number(tok);
        const v = Number(y[j]);
        if (tok.toLowerCase() === y[j]!.toLowerCase()) return true;
        return Number.isFinite(u) && Number.isFinite(v) && Math.abs(u - v) <= 1e-5 * Math.max(1, Math.abs(v));
      })
    );
  });
}

/** `signal`: the request was abandoned; the running wave is stopped and no further wave starts. */
export async function submit(executor: Executor, body: SubmitRequest, signal?: AbortSignal) {
  const config = body.config;
  const language = config.language ?? 'python';
  const extracted = extractCode(body.completion, language);
  const runtime = runtimeFor(language);
  const cases = config.provided_data.test;
  const runAll = config.extra?.run_all_cases === true;
  const tests: Array<{ passed: boolean; exec_info: RunCodeResponse; test_info: (typeof cases)[number] }> = [];
  if (!runtime) {
    const error = sandboxError(`language ${language} is not run by this server (it runs ${SUPPORTED.join(', ')})`);
    tests.push({ passed: false, exec_info: error, test_info: cases[0]! });
  } else {
    // Fail fast as SandboxFusion does unless run_all_cases: run in waves, stop after a failing wave.
    const wave = runAll ? cases.length : 8;
    for (let start = 0; start < cases.length && !signal?.aborted; start += wave) {
      const chunk = cases.slice(start, start + wave);
      const results = await Promise.all(
        chunk.map((test) =>
          executor.run(
            {
              language: runtime,
              request: {
                code: extracted.code,
                stdin: test.input.stdin,
                limits: limitsOf(config.run_timeout, undefined),
              },
            },
            { signal },
          ),
        ),
      );
      let failed = false;
      chunk.forEach((test, i) => {
        if (failed && !runAll) return;
        const exec = toRunCodeResponse(results[i]!);
        const passed = exec.status === 'Success' && stdioMatches(exec.run_result?.stdout ?? '', test.output.stdout);
        tests.push({ passed, exec_info: exec, test_info: test });
        if (!passed) failed = true;
      });
      if (failed && !runAll) break;
    }
  }
  return {
    id: body.id,
    accepted: tests.length === cases.length && tests.every((t) => t.passed),
    extracted_code: extracted.code,
    full_code: null,
    test_code: null,
    extracted_type: extracted.type,
    tests,
    extra: null,
  };
}
