/**
 * AdverMCTS's solver tree: nodes are reasoning steps, selection by P-UCB with the paper's
 * exploration constant c = 4, values are the best return seen below a node (max backups,
 * RethinkMCTS's "best" mode) minus the penalties its programs earned on adversarial tests.
 */

/** The paper's exploration constant. */
export const EXPLORATION = 4;
/** What a node loses each time a program written from it fails an adversarial test. */
export const PENALTY = 0.1;

export interface SolverNode {
  readonly id: number;
  readonly parent: SolverNode | undefined;
  readonly depth: number;
  /** The reasoning step this node adds (empty at the root). */
  readonly thought: string;
  /** The model's score for the step, normalised among its siblings. */
  readonly prior: number;
  visits: number;
  /** Best return backed up through this node; -Infinity until visited. */
  best: number;
  penalty: number;
  children: SolverNode[];
  /** Trace event of the step (the parent of what is written from it). */
  eventId?: number;
}

export function createRoot(): SolverNode {
  return {
    id: 0,
    parent: undefined,
    depth: 0,
    thought: '',
    prior: 1,
    visits: 0,
    best: -Infinity,
    penalty: 0,
    children: [],
  };
}

let nextId = 1;

/** Adds children with priors proportional to the model's scores (uniform when all are zero). */
export function expand(node: SolverNode, steps: readonly { thought: string; score: number }[]): SolverNode[] {
  const scores = steps.map((s) => (Number.isFinite(s.score) && s.score > 0 ? s.score : 0));
  const total = scores.reduce((a, b) => a + b, 0);
  node.children = steps.map((step, i) => ({
    id: nextId++,
    parent: node,
    depth: node.depth + 1,
    thought: step.thought,
    prior: total > 0 ? scores[i]! / total : 1 / steps.length,
    visits: 0,
    best: -Infinity,
    penalty: 0,
    children: [],
  }));
  return node.children;
}

/** V(node): the best return below it minus its penalties; 0 before its first visit. */
export function value(node: Pick<SolverNode, 'visits' | 'best' | 'penalty'>): number {
  return node.visits === 0 ? 0 : node.best - node.penalty;
}

/** P-UCB: V(child) + c · prior · √(ln N_parent) / (1 + n_child). */
export function pucb(
  child: Pick<SolverNode, 'visits' | 'best' | 'penalty' | 'prior'>,
  parentVisits: number,
  c = EXPLORATION,
): number {
  return value(child) + (c * child.prior * Math.sqrt(Math.log(Math.max(1, parentVisits)))) / (1 + child.visits);
}

/** The child with the highest P-UCB (the first on ties). */
export function bestChild<T extends Pick<SolverNode, 'visits' | 'best' | 'penalty' | 'prior'>>(
  children: readonly T[],
  parentVisits: number,
  c = EXPLORATION,
): number {
  let best = -1;
  let score = -Infinity;
  children.forEach((child, i) => {
    const s = pucb(child, parentVisits, c);
    if (s > score) [best, score] = [i, s];
  });
  return best;
}

/** From the root down by P-UCB to a node without children. */
export function selectLeaf(root: SolverNode, c = EXPLORATION): SolverNode {
  let node = root;
  while (node.children.length > 0) node = node.children[bestChild(node.children, node.visits, c)]!;
  return node;
}

/** Max backup: every ancestor counts the visit and keeps the best return. */
export function backup(node: SolverNode, reward: number): void {
  for (let n: SolverNode | undefined = node; n; n = n.parent) {
    n.visits++;
    n.best = Math.max(n.best, reward);
  }
}

/** A program written from `node` failed an adversarial test: the node and its ancestors pay. */
export function penalize(node: SolverNode, amount = PENALTY): void {
  for (let n: SolverNode | undefined = node; n && n.parent; n = n.parent) n.penalty += amount;
}

/** The reasoning steps from the root to `node`. */
export function planOf(node: SolverNode): string[] {
  const steps: string[] = [];
  for (let n: SolverNode | undefined = node; n && n.parent; n = n.parent) steps.unshift(n.thought);
  return steps;
}
