/**
 * `crucible/testing`: everything a test of code built on Crucible needs, in one import —
 * an in-memory model backend and an in-memory runtime (no loopback server, no sandbox), a
 * Harness over the latter, and the fake OpenAI-compatible, Anthropic and Ollama servers and
 * the tiny GGUF writer for tests that want the real provider code.
 *
 *   import { inMemoryModel, createInMemoryRuntime, inMemoryHarness } from 'crucible/testing';
 *   import { solveTask } from 'crucible';
 *
 *   const model = inMemoryModel({ replies: ['```python\ndef add(a, b):\n    return a + b\n```'] });
 *   const runtime = createInMemoryRuntime({
 *     programs: [{ match: reference, functions: { add: (a, b) => a + b } },   // modelled: outputs recorded and compared
 *                { match: /return a - b/, functions: { add: (a, b) => a - b } },
 *                { match: /while True/, status: 'timeout' }],                    // scripted: every suite times out
 *   });
 *   const harness = inMemoryHarness(runtime);
 *   const { result } = await solveTask({ task, strategy: 'repair', model, harness, budget: { modelCalls: 3 }, seed: 1 });
 *   model.requests;            // what the Model sent, after its retries, cache and n-splitting
 *   model.lastUserMessages();  // e.g. the feedback a repair round sent
 *   await harness.close();
 *
 * The model is a real `Model` (`modelFromBackend` over a scripted backend): retries, the
 * cache, timeouts, n-splitting, structured output and usage all run. The runtime's limits
 * (what it cannot answer, each an explicit `InMemoryRuntimeError`) are listed in
 * in-memory-runtime.ts.
 */
import type { Language } from '../core/task.js';
import type { Runtime } from '../runtimes/runtime.js';
import { Harness, type HarnessOptions } from '../domains/code/harness.js';
import { InMemoryRuntimeError } from './in-memory-runtime.js';

export {
  inMemoryBackend,
  inMemoryModel,
  isScriptedFailure,
  type InMemoryBackend,
  type InMemoryModel,
  type InMemoryModelOptions,
  type InMemoryRequest,
  type ScriptedCompletion,
  type ScriptedFailure,
  type ScriptedReply,
} from '../models/in-memory.js';
export {
  createInMemoryRuntime,
  InMemoryRuntimeError,
  ProgramError,
  ProgramTimeout,
  pythonRepr,
  type InMemoryProgram,
  type InMemoryRuntime,
  type InMemoryRuntimeOptions,
  type ProgramEntry,
  type SuiteScript,
} from './in-memory-runtime.js';
export * from '../models/testing/index.js';

/**
 * A Harness judging through the given runtime(s), without a sandbox: one runtime serves its
 * own language; a map gives one per language. A language with no runtime is an explicit
 * error. TypeScript type checks are off unless `typeCheck` is set (they would start the compiler).
 */
export function inMemoryHarness(
  runtimes: Runtime | Partial<Record<Language, Runtime>>,
  options: Omit<HarnessOptions, 'sandbox' | 'runtimeFactory'> = {},
): Harness {
  const byLanguage: Partial<Record<Language, Runtime>> =
    'run' in runtimes
      ? { [(runtimes as Runtime).language]: runtimes as Runtime }
      : (runtimes as Partial<Record<Language, Runtime>>);
  return new Harness({
    workers: 1,
    typeCheck: false,
    ...options,
    sandbox: 'none',
    runtimeFactory: (language) => {
      const runtime = byLanguage[language];
      if (!runtime)
        throw new InMemoryRuntimeError(
          `in-memory harness: no runtime for ${language} (it has ${Object.keys(byLanguage).join(', ') || 'none'})`,
        );
      return runtime;
    },
  });
}
