/**
 * SPADA: the model writes tests of its own, asked for as structured output. A test is used
 * only once validated: its literals must parse, its input must meet the task's
 * precondition, it must agree with the prompt's examples and the task's properties, and,
 * when the reference is an oracle, the reference must pass it. The rest are dropped.
 */
import { z } from 'zod';
import type { Task } from '../core/task.js';
import { decodeWire } from '../core/wire-values.js';
import { publicSuites, readLiteralsAsync, type PromptExample } from '../domains/code/generate/examples.js';
import type { Harness } from '../domains/code/harness.js';
import { meetsPrecondition, propertyHolds } from '../domains/code/properties.js';
import { testsMessages } from './prompts.js';
import type { Session } from './session.js';
import type { CodeSubject } from './subject.js';
import { withModelTests, type CodeChecks } from '../domains/code/index.js';

export const ModelTestsSchema = z.object({
  tests: z.array(z.object({ input: z.string(), output: z.string() })),
});

export interface DroppedTest {
  readonly test: PromptExample;
  readonly why: string;
}

export async function validateModelTests(
  harness: Harness,
  view: CodeChecks,
  tests: readonly PromptExample[],
): Promise<{ kept: PromptExample[]; dropped: DroppedTest[] }> {
  const task = view.task;
  const dropped: DroppedTest[] = [];
  const texts = (examples: readonly PromptExample[]) => examples.flatMap((e) => [`[${e.argsText}]`, e.outputText]);
  const literals = await readLiteralsAsync(task.language, [...texts(tests), ...texts(view.examples)]);
  const read = literals.slice(0, 2 * tests.length);
  const exampleArgs = literals.slice(2 * tests.length);
  // The examples' arguments' wire text → their output's.
  const examples = new Map<string, string>();
  for (let i = 0; i < view.examples.length; i++) {
    const [args, out] = [exampleArgs[2 * i], exampleArgs[2 * i + 1]];
    if (args !== undefined && out !== undefined) examples.set(args, out);
  }
  let kept = tests.filter((test, i) => {
    const [args, output] = [read[2 * i], read[2 * i + 1]];
    const drop = (why: string) => (dropped.push({ test, why }), false);
    if (args === undefined || !args.startsWith('[') || output === undefined) return drop('not a literal');
    const wireArgs = JSON.parse(args) as unknown[];
    if (!meetsPrecondition(task, wireArgs)) return drop('the input is outside what the task allows');
    const known = examples.get(args);
    if (known !== undefined && known !== output) return drop(`the prompt's example gives ${known} for this input`);
    const broken = view.properties.find((p) => !propertyHolds(p, decodeWire(wireArgs), decodeWire(JSON.parse(output))));
    if (broken) return drop(`breaks the property "${broken.name}"`);
    return true;
  });
  if (view.oracle && task.reference !== undefined && kept.length > 0) {
    const probe: Task = { ...task, suites: publicSuites(task.language, task.entryPoint, kept), knownWrong: [] };
    delete (probe as { reference?: string }).reference;
    const verdict = await harness.judge(probe, task.reference);
    const agreed = kept.filter((test, i) => {
      const suite = verdict.suites[i];
      if (suite?.status === 'pass') return true;
      dropped.push({
        test,
        why: `the reference solution disagrees${suite?.firstFailure ? `: ${suite.firstFailure.message.split('\n')[0]}` : ''}`,
      });
      return false;
    });
    kept = agreed;
  }
  return { kept, dropped };
}

/** Asks for tests, validates them, and returns the view with the kept ones as checks. */
export async function addModelTests(
  session: Session,
  subject: CodeSubject,
  view: CodeChecks,
  count = 5,
): Promise<CodeChecks> {
  const { task } = subject;
  const asked = await session.ask(testsMessages(task, count), {
    label: 'tests',
    parent: null,
    output: { schema: ModelTestsSchema, name: 'tests' },
    temperature: 0,
  });
  const value = asked.completions[0]?.value as z.infer<typeof ModelTestsSchema> | undefined;
  if (!value) {
    session.decision(
      'tests',
      `no usable tests: ${asked.completions[0]?.outputError ?? 'empty reply'}`,
      asked.eventId,
      'tests',
    );
    return view;
  }
  const proposed = value.tests.slice(0, count).map((t) => ({ argsText: t.input.trim(), outputText: t.output.trim() }));
  const { kept, dropped } = await session.sandbox(() => validateModelTests(subject.harness, view, proposed));
  session.decision(
    'tests',
    `kept ${kept.length} of ${proposed.length} model tests${dropped.length ? `; dropped ${dropped.map((d) => `${task.entryPoint}(${d.test.argsText}) → ${d.test.outputText} (${d.why})`).join('; ')}` : ''}`,
    asked.eventId,
    'tests',
    {
      kept,
      dropped,
    },
  );
  return withModelTests(view, kept);
}
