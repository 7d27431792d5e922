import { SlotPool, type PoolOptions } from './pool.js';
import { pythonRecipes } from './recipes.js';

/** Python functions, judged as EvalPlus judges them (HumanEval, MBPP and their plus suites). */
export function createPythonRuntime(options: PoolOptions & { python?: string } = {}): SlotPool {
  return new SlotPool('python', pythonRecipes(options).slot, options);
}
