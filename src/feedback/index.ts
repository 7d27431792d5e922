/** Turning verdicts into what a model should read next (PGS: the shortest failing input). */
export { callText, pickMinimal, tokenCount, type FailureFact } from './facts.js';
export { renderFeedback } from './render.js';
