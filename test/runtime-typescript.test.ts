/**
 * The runtime contract (test/contracts/runtime-contract.ts) against TypeScript: every hostile
 * program of the table, judged through the public Harness with createTypeScriptRuntime (each program transpiled).
 */
import { runRuntimeContract } from './contracts/runtime-contract.js';

runRuntimeContract('typescript');
