import assert from 'node:assert/strict';
import type { Ran, RunRequest, Runtime } from '../runtime.js';

/** A runtime whose runs a test expects the judge to report on: a no-verdict or a hung run fails the test, with the result. */
export interface JudgedRuntime {
  run(request: RunRequest): Promise<Ran>;
  close(): Promise<void>;
}

export function judged(runtime: Runtime): JudgedRuntime {
  return {
    async run(request) {
      const result = await runtime.run(request);
      if (result.kind !== 'ran') assert.fail(`the judge did not report: ${JSON.stringify(result)}`);
      return result;
    },
    close: () => runtime.close(),
  };
}
