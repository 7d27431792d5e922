/**
 * The runtime contract (test/contracts/runtime-contract.ts) against Python: every hostile
 * program of the table, judged through the public Harness with createPythonRuntime.
 */
import { runRuntimeContract } from './contracts/runtime-contract.js';

runRuntimeContract('python');
