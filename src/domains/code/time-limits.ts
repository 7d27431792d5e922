/**
 * Time limits follow the reference, as EvalPlus does: max(floor, factor × the reference's
 * time on this machine), so a slow or busy machine raises the limits with the reference.
 */
export interface TimePolicy {
  /** Floor for one io test (one call), seconds. */
  readonly callFloorSeconds: number;
  /** Floor for a whole script suite (HumanEval `check`), seconds. */
  readonly scriptFloorSeconds: number;
  readonly factor: number;
  /** Used when there is no reference to time: per call and per script. */
  readonly untimedCallSeconds: number;
  readonly untimedScriptSeconds: number;
}

export const DEFAULT_TIME_POLICY: TimePolicy = {
  callFloorSeconds: 1,
  scriptFloorSeconds: 3,
  factor: 4,
  untimedCallSeconds: 4,
  untimedScriptSeconds: 10,
};

export function callLimit(policy: TimePolicy, referenceSeconds: number | undefined): number {
  if (referenceSeconds === undefined || !Number.isFinite(referenceSeconds)) return policy.untimedCallSeconds;
  return Math.max(policy.callFloorSeconds, policy.factor * referenceSeconds);
}

export function scriptLimit(policy: TimePolicy, referenceSeconds: number | undefined): number {
  if (referenceSeconds === undefined || !Number.isFinite(referenceSeconds)) return policy.untimedScriptSeconds;
  return Math.max(policy.scriptFloorSeconds, policy.factor * referenceSeconds);
}
