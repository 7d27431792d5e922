import { Command } from 'commander';
import { runAudit } from './audit-command.js';
import { runEval } from './eval-command.js';
import { runServe, withServeOptions } from './serve-command.js';
import { positiveInt, withHarnessOptions } from './shared-options.js';

export function createCli(): Command {
  const program = new Command('crucible')
    .description('Verification-driven code generation: run model-written programs in a sandbox and judge them exactly.')
    .showHelpAfterError();

  withHarnessOptions(
    program
      .command('eval')
      .description('score samples on a benchmark (without --dataset: the built-in suite; without --samples: the references)')
      .option('--dataset <file>', 'HumanEval, HumanEval+/MBPP+, MultiPL-E, HumanEvalPack or QuixBugs JSONL (.gz ok)')
      .option('--samples <file>', 'JSONL of {task_id, solution | completion}; labelled samples are compared with their labels')
      .option('--label-suite <text>', 'with labelled samples: use only labels whose test_suite starts with this text')
      .option('--json <file>', 'write all results as JSON (schema in README)')
      .option('--disagreements <file>', 'with labelled samples: where to write each disagreement (default: next to --json)'),
  ).action(runEval);

  withHarnessOptions(
    program
      .command('audit')
      .description("measure the harness itself: references must pass, known-wrong programs must fail")
      .option('--dataset <file>', 'a dataset with references (and known-wrong programs); default: the built-in suite')
      .option('--json <file>', 'write the audit as JSON')
      .option('--mutants [n]', 'also score each task\'s tests by the mutants of its reference they kill (n per task, default 30; judges up to n programs per task, about a minute for the built-in suite)', positiveInt),
  ).action(runAudit);

  // Further commands register here, one line each.
  withServeOptions(program.command('serve').description('verification as an HTTP service: SandboxFusion-compatible /run_code and /submit, /v1/verify, rewards')).action(runServe);

  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  try {
    await createCli().parseAsync([...argv]);
  } catch (error) {
    process.stderr.write(`crucible: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(process.argv);
}
