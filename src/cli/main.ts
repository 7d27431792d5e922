import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, Option } from 'commander';
// Only options are defined at start-up; each action loads its command's code when it runs, so
// that `--help` and a mistyped flag are answered at once (loading every command took 0.4 s).
import { withModelEvalOptions } from './eval-model-options.js';
import { htmlOption, noRecordOption, storeOption } from './record-options.js';
import { registerAgentCommand } from './agent-options.js';
import { registerReportCommand } from './report-options.js';
import { registerSkeletonsCommands } from './skeletons-options.js';
import { registerRunsCommands } from './runs-command.js';
import { registerSolveCommand } from './solve-options.js';
import { runServe, withServeOptions } from './serve-command.js';
import { registerWorkerCommand } from './worker-command.js';
import { positiveInt, probability, seedNumber, withHarnessOptions } from './shared-options.js';
import { VERSION } from '../core/version.js';

export function createCli(): Command {
  const program = new Command('crucible')
    .description('Verification-driven code generation: run model-written programs in a sandbox and judge them exactly.')
    .version(VERSION, '-V, --version', 'print the version')
    .showHelpAfterError();

  withModelEvalOptions(
    withHarnessOptions(
      program
        .command('eval')
        .description(
          'score samples on a benchmark (without --dataset: the built-in suite; without --samples: the references)',
        )
        .option('--dataset <file>', 'HumanEval, HumanEval+/MBPP+, MultiPL-E, HumanEvalPack or QuixBugs JSONL (.gz ok)')
        .option(
          '--samples <file>',
          'JSONL of {task_id, solution | completion}; labelled samples are compared with their labels',
        )
        .option('--label-suite <text>', 'with labelled samples: use only labels whose test_suite starts with this text')
        .option(
          '--allow-missing',
          'skip samples whose task id is not in the dataset (default: an error that names them)',
        )
        .option('--json <file>', 'write all results as JSON (schema in README)')
        .addOption(htmlOption())
        .option(
          '--disagreements <file>',
          'with labelled samples: where to write each disagreement (default: next to --json)',
        )
        .addOption(
          new Option(
            '--judge <how>',
            'SQL tasks: execution (run the queries), or static (compare them normalised, without running: equivalent, different or unknown)',
          )
            .choices(['execution', 'static'])
            .default('execution'),
        )
        .option(
          '--augment',
          'add generated inputs to each task with a reference (judged against the reference); failures are shrunk to a minimal input',
        )
        .option(
          '--augment-inputs <n>',
          'generated inputs per task with --augment (default 100; SQL tasks: generated databases, default 12)',
          positiveInt,
        )
        .option(
          '--augment-mutants <n>',
          'with --augment: run n mutants of each reference and keep first the inputs that kill them (slower; default off)',
          positiveInt,
        )
        .option('--seed <n>', 'seed for generated inputs (printed on every run; replays it)', seedNumber),
    ),
  )
    .addOption(noRecordOption())
    .action(async (flags) => (await import('./eval-command.js')).runEval(flags));

  withHarnessOptions(
    program
      .command('select')
      .description(
        'pick one program per task from several samples, or abstain; uses only the prompt, its examples, generated inputs and the samples',
      )
      .requiredOption('--dataset <file>', 'the tasks (their hidden tests and references are not used)')
      .requiredOption('--samples <file>', 'JSONL of {task_id, solution | completion}, several per task')
      .option('--threshold <file>', 'a threshold from crucible calibrate: abstain below it')
      .option('--allow-missing', 'skip samples whose task id is not in the dataset (default: an error that names them)')
      .option(
        '--inputs <n>',
        'generated inputs per task (default 100, plus 50 from the disagreement hunt)',
        positiveInt,
      )
      .option('--seed <n>', 'seed for generated inputs (printed on every run; replays it)', seedNumber)
      .option('--json <file>', 'write every decision as JSON (schema in README)')
      .addOption(htmlOption())
      .addOption(storeOption())
      .addOption(noRecordOption()),
  ).action(async (flags) => (await import('./select-command.js')).runSelect(flags));

  withHarnessOptions(
    program
      .command('calibrate')
      .description(
        'choose the abstention threshold on labelled tasks: among answered tasks, wrong programs stay under α with probability ≥ 1-δ',
      )
      .requiredOption('--dataset <file>', 'calibration tasks with tests (used to label each selection right or wrong)')
      .requiredOption('--samples <file>', 'JSONL of {task_id, solution | completion}, several per task')
      .requiredOption('--out <file>', 'where to write the threshold (read by select --threshold)')
      .addOption(htmlOption())
      .option('--allow-missing', 'skip samples whose task id is not in the dataset (default: an error that names them)')
      .option('--alpha <a>', 'the largest acceptable share of wrong answers among answered tasks', probability, 0.1)
      .option('--delta <d>', 'the allowed probability that the guarantee fails', probability, 0.1)
      .option('--inputs <n>', 'generated inputs per task (default 100)', positiveInt)
      .option('--seed <n>', 'seed for generated inputs', seedNumber)
      .addOption(storeOption())
      .addOption(noRecordOption()),
  ).action(async (flags) => (await import('./calibrate-command.js')).runCalibrate(flags));

  withHarnessOptions(
    program
      .command('audit')
      .description('measure the harness itself: references must pass, known-wrong programs must fail')
      .option('--dataset <file>', 'a dataset with references (and known-wrong programs); default: the built-in suite')
      .option('--limit <n>', 'audit only the first n tasks', positiveInt)
      .option('--json <file>', 'write the audit as JSON')
      .addOption(htmlOption())
      .option(
        '--mutants [n]',
        "also score each task's tests by the mutants of its reference they kill (n per task, default 30; judges up to n more programs per task: about 30 s for the built-in suite, 2 min for HumanEval, 7 min for HumanEval+ on 2 cores)",
        positiveInt,
      )
      .option(
        '--coverage [n]',
        "also measure how much of each reference (lines, decision outcomes) each of the task's suites reaches, beside n generated inputs (default 100)",
        positiveInt,
      )
      .option('--seed <n>', 'seed for the generated inputs of --coverage (printed; replays it)', seedNumber)
      .addOption(storeOption())
      .addOption(noRecordOption()),
  ).action(async (flags) => (await import('./audit-command.js')).runAudit(flags));

  const sql = program.command('sql').description('SQL tasks: tools beyond eval (which judges SQL task files too)');
  sql
    .command('bugs')
    .description(
      "write debugging tasks (Squirrel-style) from a dataset's correct queries: mutants the generated databases tell apart, and syntax faults with the engine's message",
    )
    .requiredOption(
      '--dataset <file>',
      'SQL tasks: a task file (domain sql), text2sql-data JSON, or a Spider/BIRD split',
    )
    .requiredOption('--out <file>', 'the debugging tasks, as SQL task lines (JSONL)')
    .option('--seed <n>', 'seed of the generated databases (default: random, printed)', seedNumber)
    .option('--databases <n>', 'generated databases per task (default 12)', positiveInt)
    .option('--limit <n>', 'only the first n distinct queries', positiveInt)
    .option('--workers <n>', 'sandboxed SQL workers (default: one per core)', positiveInt)
    .addOption(
      new Option('--sandbox <mode>', 'isolation for untrusted queries').choices(['bwrap', 'none']).default('bwrap'),
    )
    .action(async (flags) => (await import('./sql-bugs-command.js')).runSqlBugs(flags));

  // Output files are checked before any work starts: a run of minutes must not end with
  // nowhere to write its results.
  program.hook('preAction', (_program, action) => checkOutputPaths(action.opts()));

  // Further commands register here, one line each.
  registerRunsCommands(program);
  registerSolveCommand(program);
  withServeOptions(
    program
      .command('serve')
      .description(
        'verification as an HTTP service: SandboxFusion-compatible /run_code and /submit, /v1/verify, rewards',
      ),
  ).action(runServe);
  registerWorkerCommand(program);
  registerReportCommand(program);
  registerAgentCommand(program);
  registerSkeletonsCommands(program);
  program
    .command('review')
    .description(
      'render an HTML document printed (A4, Letter) and on a screen in chromium, and list its formatting issues: overflow, overlap, broken images, low contrast, tables too wide, orphan headings, parse errors, heading order (exit 1 on an error)',
    )
    .argument('[file]', 'the HTML document')
    .option('--json <file>', 'also write {"issues": [...], "pages": {...}} to this file')
    .option('--media <list>', 'where to judge it: a4, letter, screen, comma-separated (default: all three)')
    .option(
      '--assets <dir>',
      'serve the files under this folder beside the document, at their relative paths (images, fonts, style sheets); nothing else is fetched',
    )
    .option(
      '--scripts',
      "let the document's scripts run (a page that draws itself); by default they do not: a document is read, not run",
    )
    .action(async (file: string | undefined, flags) => (await import('./review-command.js')).runReview(file, flags));

  return program;
}

/** The options that name a file to write. */
const OUTPUT_OPTIONS = { json: '--json', html: '--html', out: '--out', disagreements: '--disagreements' } as const;

export function checkOutputPaths(options: Record<string, unknown>): void {
  for (const [key, flag] of Object.entries(OUTPUT_OPTIONS)) {
    const path = options[key];
    if (typeof path !== 'string') continue;
    const folder = dirname(resolve(path));
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new Error(`${flag} ${path}: the folder ${folder} does not exist (create it first: mkdir -p ${folder})`);
    }
    if (existsSync(path) && statSync(path).isDirectory())
      throw new Error(`${flag} ${path}: that is a folder; give a file name`);
  }
}

export interface MainOptions {
  /**
   * Called once a command is about to run (not for help, the version or a usage error): bin/crucible.js
   * registers tsx here when it runs the command line from its bundle (bin/cli-bundle.js).
   */
  readonly beforeAction?: () => void | Promise<void>;
}

export async function main(argv: readonly string[], options: MainOptions = {}): Promise<void> {
  // `crucible runs | head`: a reader that stops reading is not an error of ours.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  try {
    const program = createCli();
    if (options.beforeAction) program.hook('preAction', options.beforeAction);
    await program.parseAsync([...argv]);
  } catch (error) {
    process.stderr.write(`crucible: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(process.argv);
}
