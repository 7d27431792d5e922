/**
 * `advermcts` (AdverMCTS): a solver tree over reasoning steps writes programs; programs that
 * pass the public tests and every test of the global filter enter the code pool; once the
 * pool holds two programs, an attacker (a persistent set of testing strategies chosen by
 * UCB) asks for inputs where pool programs disagree, keeps the most divergent one, and an
 * arbiter — the reference when the task ships one, else the model — names its expected
 * output. That test joins the global filter: pool programs that fail it leave the pool and
 * their reasoning nodes pay a penalty of 0.1. The answer is the program with the best
 * public pass rate, then adversarial pass rate.
 */
import { callText } from '../../feedback/index.js';
import { readLiteralsAsync } from '../../domains/code/generate/examples.js';
import { meetsPrecondition } from '../../domains/code/properties.js';
import { behaviours, divergenceReward, GlobalTestFilter, type AdversarialTest } from './filter.js';
import {
  ArbiterSchema,
  ATTACK_STRATEGIES,
  AttackSchema,
  arbiterMessages,
  attackMessages,
  expandMessages,
  simulateMessages,
  StepsSchema,
} from './prompts.js';
import { backup, createRoot, expand, penalize, planOf, selectLeaf, type SolverNode } from './tree.js';
import { BudgetStop, Session, type Judged } from '../session.js';
import { codeOnly } from '../subject.js';
import type { Strategy } from '../types.js';

export const DEFAULT_ROLLOUTS = 16;
/** Reasoning steps below the root before nodes are re-simulated instead of expanded. */
const MAX_DEPTH = 2;
const BRANCHING = 3;
/** The paper's best setting (an inverted U over 1–4). */
const ATTACKER_ROLLOUTS = 2;
const INPUTS_PER_ATTACK = 4;

interface Program {
  readonly judged: Judged;
  readonly node: SolverNode;
  readonly publicRate: number;
  inPool: boolean;
  /** Global-filter tests checked so far, and the ones failed (indices). */
  checked: number;
  failed: number[];
}

interface AttackStrategy {
  readonly text: string;
  visits: number;
  reward: number;
}

export const advermcts: Strategy = async (input, context) => {
  const subject = codeOnly(input, 'advermcts');
  const { task, harness } = subject;
  const session = await Session.open(subject, context);
  const view = session.view;
  const rollouts = context.options?.rollouts ?? DEFAULT_ROLLOUTS;
  const root = createRoot();
  const filter = new GlobalTestFilter();
  const programs: Program[] = [];
  const strategies: AttackStrategy[] = ATTACK_STRATEGIES.map((text) => ({ text, visits: 0, reward: 0 }));
  const pool = () => programs.filter((p) => p.inPool);
  let quietRound = false;

  const publicRate = (j: Judged) =>
    j.report.publicChecks.total === 0
      ? j.report.verdict.status === 'pass'
        ? 1
        : 0
      : j.report.publicChecks.passed / j.report.publicChecks.total;

  /** Asks for the next reasoning steps below `node`. */
  const expandNode = async (node: SolverNode, rollout: number) => {
    const lastFailure = programs.filter((p) => p.node === node).at(-1)?.judged.report.failures[0];
    const failure = lastFailure
      ? `${lastFailure.check}${lastFailure.input ? ` on input ${lastFailure.input}` : ''}: ${lastFailure.message.split('\n')[0]}`
      : undefined;
    const asked = await session.ask(expandMessages(task, planOf(node), BRANCHING, failure), {
      label: `expand ${rollout}`,
      parent: node.eventId ?? null,
      output: { schema: StepsSchema, name: 'steps' },
      temperature: 0.7,
    });
    const steps =
      (asked.completions[0]?.value as { steps: { thought: string; score: number }[] } | undefined)?.steps.slice(
        0,
        BRANCHING,
      ) ?? [];
    if (steps.length === 0) return undefined;
    const children = expand(node, steps);
    for (const child of children) {
      child.eventId = session.decision('step', child.thought, asked.eventId, `step p=${child.prior.toFixed(2)}`, {
        prior: child.prior,
        depth: child.depth,
      });
    }
    return children[0];
  };

  /** Writes a program from the node's reasoning, judges it, gates it into the pool, backs up its reward. */
  const simulate = async (node: SolverNode, rollout: number) => {
    const label = `rollout ${rollout}`;
    const asked = await session.ask(simulateMessages(task, planOf(node)), {
      label,
      parent: node.eventId ?? null,
      temperature: 0.7,
      seed: context.seed + rollout,
    });
    const judged = await session.judgeReply(asked.completions[0]?.text ?? '', asked.eventId, label);
    if (!judged) {
      backup(node, 0);
      return;
    }
    const rate = publicRate(judged);
    const failed = await session.sandbox(() => filter.failures(harness, view.task, judged.program));
    const reward = rate - (failed.length ? 0.1 : 0);
    const program: Program = { judged, node, publicRate: rate, inPool: false, checked: filter.tests.length, failed };
    programs.push(program);
    if (failed.length) penalize(node);
    const admitted =
      rate === 1 &&
      failed.length === 0 &&
      judged.report.noVerdict === undefined &&
      !pool().some((p) => p.judged.program === judged.program);
    program.inPool = admitted;
    const why = failed.length
      ? `blocked by the global test filter: fails ${failed.length} adversarial test${failed.length === 1 ? '' : 's'} (first: ${callText(task.entryPoint, filter.tests[failed[0]!]!.input)})`
      : rate < 1
        ? `not admitted: passes ${judged.report.publicChecks.passed}/${judged.report.publicChecks.total} public tests`
        : admitted
          ? `admitted to the code pool (${pool().length} program${pool().length === 1 ? '' : 's'})`
          : 'same program as one already in the pool';
    session.decision(admitted ? 'admit' : 'reject', why, judged.verdictId, label, { reward });
    backup(node, reward);
  };

  /** One attacker rollout: pick a strategy (UCB1), ask for inputs, keep the most divergent, arbitrate. */
  const attack = async (rollout: number, k: number) => {
    const members = pool();
    const total = strategies.reduce((n, s) => n + s.visits, 0);
    const strategy = strategies.reduce((best, s) => (ucb1(s, total) > ucb1(best, total) ? s : best));
    const label = `attack ${rollout}.${k}`;
    const asked = await session.ask(
      attackMessages(
        task,
        members.map((p) => p.judged.program),
        strategy.text,
        INPUTS_PER_ATTACK,
      ),
      { label, parent: null, output: { schema: AttackSchema, name: 'inputs' }, temperature: 0.7 },
    );
    const proposed =
      (asked.completions[0]?.value as { inputs: string[] } | undefined)?.inputs.slice(0, INPUTS_PER_ATTACK) ?? [];
    const parsed = await readLiteralsAsync(
      task.language,
      proposed.map((p) => `[${p}]`),
    );
    const seen = new Set(filter.tests.map((t) => t.input));
    const inputs = parsed.filter(
      (t): t is string =>
        t !== undefined && t.startsWith('[') && !seen.has(t) && meetsPrecondition(task, JSON.parse(t)),
    );
    const unique = [...new Set(inputs)];
    const matrix = await session.sandbox(() =>
      Promise.all(members.map((p) => behaviours(harness, view.task, p.judged.program, unique))),
    );
    const scored = unique
      .map((input, i) => ({ input, i, d: divergenceReward(matrix.map((row) => row[i])) }))
      .sort((a, b) => b.d - a.d || a.i - b.i);
    const top = scored[0];
    strategy.visits++;
    strategy.reward += top?.d ?? 0;
    if (!top || top.d === 0) {
      session.decision(
        'attack',
        `${strategy.text}: no input of ${unique.length} splits the ${members.length} pool programs`,
        asked.eventId,
        label,
        { divergence: 0 },
      );
      return false;
    }
    const outputs = [...new Set(matrix.map((row) => row[top.i]).filter((k): k is string => k != null))];
    const attackId = session.decision(
      'attack',
      `${strategy.text}: ${callText(task.entryPoint, top.input)} splits the pool into ${outputs.length} behaviours (divergence ${top.d.toFixed(2)})`,
      asked.eventId,
      label,
      { divergence: top.d, input: top.input },
    );
    const test = await arbitrate(top.input, outputs, attackId, label);
    if (!test) return true;
    filter.add(test);
    // The new test gates the pool: programs that fail it leave, and their reasoning pays.
    for (const [m, member] of members.entries()) {
      if (matrix[m]![top.i] === test.expected) continue;
      member.inPool = false;
      penalize(member.node);
      session.decision(
        'evict',
        `fails the adversarial test ${callText(task.entryPoint, test.input)} → ${display(test.expected)}`,
        member.judged.verdictId,
        label,
      );
    }
    return true;
  };

  const arbitrate = async (
    input: string,
    outputs: readonly string[],
    parent: number,
    label: string,
  ): Promise<AdversarialTest | undefined> => {
    const reference = view.task.reference;
    if (reference !== undefined) {
      const [expected] = await session.sandbox(() => behaviours(harness, view.task, reference, [input]));
      if (!expected || expected.startsWith('!')) {
        session.decision(
          'discard',
          `the reference does not return on ${callText(task.entryPoint, input)}: the input is invalid`,
          parent,
          label,
        );
        return undefined;
      }
      session.decision('arbitrate', `the reference returns ${display(expected)}`, parent, label, {
        arbiter: 'reference',
      });
      return { input, expected, arbiter: 'reference' };
    }
    const values = outputs.filter((o) => o.startsWith('='));
    if (values.length === 0) return undefined;
    const asked = await session.ask(arbiterMessages(task, view.examples, input, values.map(display)), {
      label: `arbiter ${label}`,
      parent,
      output: { schema: ArbiterSchema, name: 'verdict' },
      temperature: 0,
    });
    const verdict = asked.completions[0]?.value as { valid: boolean; output: string } | undefined;
    const chosen = verdict?.valid ? values.find((v) => display(v).trim() === verdict.output.trim()) : undefined;
    if (!chosen) {
      session.decision(
        'discard',
        verdict?.valid
          ? `the arbiter named ${verdict.output}, which no program returned`
          : 'the arbiter judged the input invalid or ambiguous',
        asked.eventId,
        label,
      );
      return undefined;
    }
    session.decision('arbitrate', `the model says ${display(chosen)}`, asked.eventId, label, { arbiter: 'model' });
    return { input, expected: chosen, arbiter: 'model' };
  };

  try {
    for (let rollout = 1; rollout <= rollouts; rollout++) {
      let node = selectLeaf(root);
      const expandable = node === root || (node.visits > 0 && node.depth < MAX_DEPTH);
      if (expandable) node = (await expandNode(node, rollout)) ?? node;
      await simulate(node, rollout);
      if (pool().length >= 2) {
        quietRound = true;
        for (let k = 1; k <= ATTACKER_ROLLOUTS && pool().length >= 2; k++)
          if (await attack(rollout, k)) quietRound = false;
      }
      const leader = await session.sandbox(pick);
      if (leader?.passes && quietRound) {
        session.decision(
          'stop',
          'the leading program passes every check and the attacker found no input that splits the pool',
          null,
          `rollout ${rollout}`,
        );
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof BudgetStop)) throw error;
    session.decision('stop', error.message, null, 'budget');
  }
  const best = await pick().catch(() => undefined);
  if (!best) return session.conclude(undefined, undefined, 'no program was written');
  const adversarial = filter.tests.length ? `, ${best.adversarialPassed}/${filter.tests.length} adversarial tests` : '';
  if (best.passes) {
    return session.finish(
      'verified',
      `passes all visible checks${adversarial}; chosen by public pass rate, then adversarial pass rate, among ${programs.length} programs`,
      best.program.judged,
    );
  }
  if (best.program.judged.report.unchecked) return session.conclude(best.program.judged, undefined, '');
  return session.finish(
    'abstained',
    `no program passes every visible check and adversarial test (the best passes ${best.program.judged.report.publicChecks.passed}/${best.program.judged.report.publicChecks.total} public tests${adversarial})`,
    undefined,
    best.program.judged,
  );

  /** Final selection: public pass rate, then adversarial pass rate, then the earliest. */
  async function pick(): Promise<{ program: Program; adversarialPassed: number; passes: boolean } | undefined> {
    if (programs.length === 0) return undefined;
    const rated = await Promise.all(
      programs.map(async (program, i) => {
        // Only the tests added since the program was last checked are run.
        if (program.checked < filter.tests.length) {
          program.failed.push(...(await filter.failures(harness, view.task, program.judged.program, program.checked)));
          program.checked = filter.tests.length;
        }
        return { program, i, adversarialPassed: filter.tests.length - program.failed.length };
      }),
    );
    rated.sort(
      (a, b) => b.program.publicRate - a.program.publicRate || b.adversarialPassed - a.adversarialPassed || a.i - b.i,
    );
    const top = rated[0]!;
    return { ...top, passes: top.program.judged.report.passed && top.adversarialPassed === filter.tests.length };
  }
};

function ucb1(s: AttackStrategy, total: number): number {
  if (s.visits === 0) return Infinity;
  return s.reward / s.visits + Math.sqrt((2 * Math.log(Math.max(1, total))) / s.visits);
}

/** A behaviour key as the model reads it. */
function display(key: string): string {
  return key.startsWith('=') ? key.slice(1) : `raises ${key.slice(1)}`;
}
