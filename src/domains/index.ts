/**
 * `crucible/domains`: what a pack of one's own is written against — the judging contract
 * (types.ts), the module the front doors read (pack-module.ts), the subject a strategy talks
 * to a model through, the gated reward's levels, the sandboxed one-shot command runner — and
 * the registry of built-in packs.
 */
export type { Audience, Behaviour, Checks, DomainPack, PrepareOptions, Probe, Report, VerifyOptions } from './types.js';
export type {
  AnyPackModule,
  OpenPack,
  PackModule,
  RuntimeOptions,
  ScoredSuite,
  StaticJudge,
  Writes,
} from './pack-module.js';
export { installedPacks, packOfTaskFile, PACKS } from './registry.js';
export { revision, type Identified, type Subject } from './subject.js';
export { readTaskLines, isTaskFileOf } from './task-lines.js';
export { gatedLevels, type JudgedUnit, type LevelEvidence } from './gated-levels.js';
export { gatedReward, type GatedReward } from '../rl/gated-reward.js';
export type { FailureFact } from '../feedback/facts.js';
export type { Failure, Status, SuiteVerdict, Verdict } from '../core/verdict.js';
export { runSandboxed, DEFAULT_COMMAND_LIMITS, type CommandLimits, type CommandResult } from '../runtimes/command.js';
