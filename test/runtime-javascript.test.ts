/**
 * The runtime contract (test/contracts/runtime-contract.ts) against JavaScript: every hostile
 * program of the table, judged through the public Harness with createJavaScriptRuntime.
 */
import { runRuntimeContract } from './contracts/runtime-contract.js';

runRuntimeContract('javascript');
