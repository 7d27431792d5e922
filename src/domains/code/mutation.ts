/**
 * Mutants of a task's reference program, for measuring how strong its tests are: a
 * mutant is the reference with one small edit (an operator, a constant, a condition),
 * and good tests fail it. See `mutants/types.ts` for the operators.
 *
 * Only the solution is edited (the text after the prompt), never strings, comments or
 * types. Mutants that do not parse are dropped (they would be killed for free), and so
 * are those whose text equals the reference or another mutant up to whitespace. The same
 * task and seed always give the same mutants.
 */
import type { Task } from '../../core/task.js';
import { lineDiff } from './mutants/diff.js';
import { javascriptSites, parsesCleanly } from './mutants/javascript.js';
import { pythonSites } from './mutants/python.js';
import { checkPythonSyntax, tokenizePython } from './mutants/python-helper.js';
import { hashString, spreadPick } from './mutants/spread.js';
import type { MutationOperator, MutationSite, TaskMutants } from './mutants/types.js';

export { MUTATION_OPERATORS, type Mutant, type MutationOperator, type TaskMutants } from './mutants/types.js';
export {
  EQUIVALENT_MUTANTS_NOTE,
  scoreMutants,
  WEAK_SCORE,
  type MutationReport,
  type Survivor,
  type TaskMutationScore,
} from './mutants/score.js';
export { formatMutationReport } from './mutants/format.js';

export const DEFAULT_MUTANTS_PER_TASK = 30;

export interface MutationOptions {
  /** Mutants per task at most (default 30). */
  readonly max?: number;
  /** Mixed with each task's id to choose which mutants are kept (default 0). */
  readonly seed?: number;
}

/** Where the solution starts: after the prompt when the reference begins with it (the prompt is given, not written). */
export function solutionStart(task: Task): number {
  const reference = task.reference ?? '';
  return task.completionPrefix !== '' && reference.startsWith(task.completionPrefix) ? task.completionPrefix.length : 0;
}

/** The mutants of every task, in the tasks' order. Python is tokenized and syntax-checked by one python3 process per call. */
export async function generateMutants(tasks: readonly Task[], options: MutationOptions = {}): Promise<TaskMutants[]> {
  const max = options.max ?? DEFAULT_MUTANTS_PER_TASK;
  const python = tasks.filter((task) => task.language === 'python' && task.reference !== undefined);
  const pythonIndex = new Map(python.map((task, i) => [task, i]));
  const tokenized = python.length > 0 ? await tokenizePython(python.map((task) => task.reference!)) : [];

  const drafts = tasks.map((task) => {
    const nothing = (problem: string) => ({ task, edits: [] as Edit[], found: 0, duplicates: 0, problem });
    if (task.reference === undefined) return nothing('no reference solution to mutate');
    let sites: MutationSite[];
    if (task.language === 'python') {
      const result = tokenized[pythonIndex.get(task)!]!;
      if (!Array.isArray(result))
        return nothing(`the reference does not tokenize: ${(result as { error: string }).error}`);
      sites = pythonSites(task.reference, result, solutionStart(task));
    } else {
      sites = javascriptSites(task.reference, task.language, solutionStart(task));
    }
    return { task, ...distinctEdits(task.reference, sites), problem: undefined };
  });

  const pythonPrograms = drafts.flatMap((d) => (d.task.language === 'python' ? d.edits.map((e) => e.program) : []));
  const pythonValid = pythonPrograms.length > 0 ? await checkPythonSyntax(pythonPrograms) : [];
  let nextPython = 0; // pythonValid follows the drafts' order, as pythonPrograms did

  return drafts.map((draft): TaskMutants => {
    const { task, edits } = draft;
    const valid = edits.filter((edit) =>
      task.language === 'python'
        ? pythonValid[nextPython++] === true
        : parsesCleanly(edit.program, task.language as 'javascript' | 'typescript'),
    );
    const seed = (hashString(task.id) ^ (options.seed ?? 0)) >>> 0;
    const mutants = spreadPick(valid, max, seed).map(({ site, program, line, diff }) => ({
      operator: site.operator,
      line,
      start: site.start,
      end: site.end,
      original: task.reference!.slice(site.start, site.end),
      replacement: site.replacement,
      program,
      diff,
    }));
    return {
      task,
      mutants,
      found: draft.found,
      invalid: edits.length - valid.length,
      duplicates: draft.duplicates,
      ...(draft.problem !== undefined ? { problem: draft.problem } : {}),
    };
  });
}

interface Edit {
  readonly operator: MutationOperator;
  readonly site: MutationSite;
  readonly program: string;
  readonly line: number;
  readonly diff: string;
}

/** Applies each site; drops programs equal to the reference or to an earlier mutant up to whitespace. */
function distinctEdits(
  reference: string,
  sites: readonly MutationSite[],
): { edits: Edit[]; found: number; duplicates: number } {
  const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
  const seen = new Set([normalize(reference)]);
  const edits: Edit[] = [];
  for (const site of sites) {
    const program = reference.slice(0, site.start) + site.replacement + reference.slice(site.end);
    const key = normalize(program);
    if (seen.has(key)) continue;
    seen.add(key);
    edits.push({
      operator: site.operator,
      site,
      program,
      ...lineDiff(reference, site.start, site.end, site.replacement),
    });
  }
  return { edits, found: sites.length, duplicates: sites.length - edits.length };
}
