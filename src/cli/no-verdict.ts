/**
 * Samples without a verdict (the sandbox failed, or limits too low for the interpreter
 * itself: never the program) make the results incomplete: said on stderr with the first
 * reason, and the command exits 3 so that scripts do not take a partial score for a score.
 */
export const INCOMPLETE_EXIT_CODE = 3;

export function reportNoVerdicts(count: number, firstReason: string | undefined): void {
  if (count === 0) return;
  const reason = firstReason ? ` The first says: ${firstReason}` : '';
  process.stderr.write(
    `crucible: ${count} samples got no verdict; they count as neither pass nor fail, and the results are incomplete (exit code ${INCOMPLETE_EXIT_CODE}).${reason}\n`,
  );
  if (!process.exitCode) process.exitCode = INCOMPLETE_EXIT_CODE;
}
