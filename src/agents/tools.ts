/**
 * The tools an agent works on its workspace with, each documented by its JSON schema (what a
 * model's tool call is checked against). A call's outcome is data — output for the model, or a
 * refusal it can act on (a bad path, an edit that does not apply, a tool it was not given) —
 * so a session always goes on. Edits to a file Crucible can parse (Python, JavaScript,
 * TypeScript) are refused when they leave it unparseable, and the file stays byte-identical.
 */
import { RE2JS } from 're2js';
import { z } from 'zod';
import type { SandboxMode } from '../runtimes/sandbox.js';
import { runSandboxed, type CommandLimits, type CommandResult } from '../runtimes/command.js';
import { checkSyntax, definitions, hasGrammar } from './syntax.js';
import { summarizeTests } from './test-summary.js';
import { Refused, type Workspace } from './workspace.js';

export interface ToolOutcome {
  readonly ok: boolean;
  /** What the model is told. */
  readonly output: string;
}

export interface AgentTool<Args = any> {
  readonly name: string;
  readonly description: string;
  readonly parameters: z.ZodType<Args>;
  run(args: Args, workspace: Workspace): Promise<ToolOutcome>;
}

const ok = (output: string): ToolOutcome => ({ ok: true, output });
const refused = (message: string): ToolOutcome => ({ ok: false, output: message });

/** Lines read at most per call: the rest is asked for by range (SWE-agent's viewer shows 100). */
export const MAX_READ_LINES = 400;
export const MAX_LIST_FILES = 500;
export const MAX_SEARCH_HITS = 100;

const listFiles: AgentTool<{ path?: string | undefined }> = {
  name: 'list_files',
  description: `List the files under a folder of the repository (default: all of it), up to ${MAX_LIST_FILES}.`,
  parameters: z.object({ path: z.string().optional().describe('a folder, relative to the repository root') }),
  async run({ path }, workspace) {
    const listed = await workspace.listFiles(path ?? '.', MAX_LIST_FILES);
    if (listed instanceof Refused) return refused(listed.message);
    if (listed.files.length === 0) return ok(`no files under ${path ?? 'the repository root'}`);
    const more = listed.truncated ? `\n(only the first ${MAX_LIST_FILES}; list a folder to see more)` : '';
    return ok(listed.files.join('\n') + more);
  },
};

const readFileTool: AgentTool<{ path: string; start_line?: number | undefined; end_line?: number | undefined }> = {
  name: 'read_file',
  description: `Read a file, with line numbers; at most ${MAX_READ_LINES} lines at once (give start_line and end_line for the rest).`,
  parameters: z.object({
    path: z.string(),
    start_line: z.number().int().positive().optional().describe('first line, from 1'),
    end_line: z.number().int().positive().optional().describe('last line, included'),
  }),
  async run({ path, start_line, end_line }, workspace) {
    const file = await workspace.readText(path);
    if (file instanceof Refused) return refused(file.message);
    const lines = file.text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length === 0) return ok(`${path} is empty`);
    const first = start_line ?? 1;
    if (first > lines.length) return refused(`${path} has ${lines.length} lines; start_line ${first} is past its end`);
    const last = Math.min(end_line ?? lines.length, lines.length, first + MAX_READ_LINES - 1);
    if (last < first) return refused(`end_line ${end_line} is before start_line ${first}`);
    const width = String(last).length;
    const shown = lines.slice(first - 1, last).map((line, i) => `${String(first + i).padStart(width)}  ${line}`);
    const rest = last < lines.length ? `\n(lines ${first}-${last} of ${lines.length})` : '';
    return ok(shown.join('\n') + rest);
  },
};

const search: AgentTool<{ query: string; regex?: boolean | undefined; definition?: boolean | undefined }> = {
  name: 'search',
  description:
    'Search the repository: a text (or a regular expression with regex: true) in every file, or with definition: true the functions, classes and methods of that name.',
  parameters: z.object({
    query: z.string().min(1),
    regex: z.boolean().optional(),
    definition: z.boolean().optional().describe('find where a function, class or method of this name is defined'),
  }),
  async run({ query, regex, definition }, workspace) {
    // The model's expression runs in Crucible's process: RE2's engine matches in linear time, so
    // no expression (`(a+)+$`) can stall it the way a backtracking engine would.
    let pattern: RE2JS | undefined;
    if (regex) {
      try {
        pattern = RE2JS.compile(query);
      } catch (error) {
        return refused(
          `not a regular expression Crucible can run (RE2 syntax: no lookaround or backreferences): ${(error as Error).message}`,
        );
      }
    }
    const hits: string[] = [];
    for await (const file of workspace.textFiles()) {
      if (definition) {
        for (const d of await definitions(file.path, file.text))
          if (d.name === query || d.name.endsWith(`.${query}`))
            hits.push(`${file.path}:${d.startLine}-${d.endLine}: ${d.kind} ${d.name}`);
      } else {
        file.text.split('\n').forEach((line, i) => {
          if (pattern ? pattern.matcher(line).find() : line.includes(query))
            hits.push(`${file.path}:${i + 1}: ${line.trim()}`);
        });
      }
      if (hits.length >= MAX_SEARCH_HITS) break;
    }
    if (hits.length === 0) return ok(`no ${definition ? 'definition of' : 'match for'} ${JSON.stringify(query)}`);
    const more = hits.length > MAX_SEARCH_HITS ? `\n(only the first ${MAX_SEARCH_HITS})` : '';
    return ok(hits.slice(0, MAX_SEARCH_HITS).join('\n') + more);
  },
};

/** Writes `text` unless it breaks the file's syntax (when Crucible can parse it, and it parsed before). */
async function guardedWrite(workspace: Workspace, path: string, before: string | undefined, text: string) {
  if (hasGrammar(path)) {
    const after = await checkSyntax(path, text);
    const wasValid = before === undefined || (await checkSyntax(path, before)).ok;
    if (!after.ok && wasValid)
      return refused(`refused: the edit would leave ${path} unparseable (${after.message}); the file is unchanged`);
  }
  const written = await workspace.writeText(path, text);
  return written instanceof Refused ? refused(written.message) : undefined;
}

const editFile: AgentTool<{ path: string; old?: string | undefined; definition?: string | undefined; new: string }> = {
  name: 'edit_file',
  description:
    'Edit a file: replace the text `old` (which must occur exactly once; include surrounding lines to make it unique) with `new`, or replace the whole definition named `definition` (a function, class or method: `name` or `Class.method`) with `new`.',
  parameters: z
    .object({
      path: z.string(),
      old: z.string().min(1).optional(),
      definition: z.string().min(1).optional(),
      new: z.string(),
    })
    .refine((args) => (args.old === undefined) !== (args.definition === undefined), {
      message: 'give exactly one of `old` (the text to replace) and `definition` (the name of what to replace)',
    }),
  async run(args, workspace) {
    const file = await workspace.readText(args.path);
    if (file instanceof Refused) return refused(file.message);
    let start: number;
    let end: number;
    if (args.old !== undefined) {
      const at = occurrences(file.text, args.old);
      if (at.length === 0)
        return refused(
          `\`old\` does not occur in ${args.path} (it must match exactly, spaces and indentation included); read_file shows the text`,
        );
      if (at.length > 1) {
        const lines = at.map((i) => file.text.slice(0, i).split('\n').length);
        return refused(
          `\`old\` occurs ${at.length} times in ${args.path} (lines ${lines.join(', ')}); include more of the surrounding text so it occurs once`,
        );
      }
      start = at[0]!;
      end = start + args.old.length;
    } else {
      if (!hasGrammar(args.path))
        return refused(`definitions can be found only in Python, JavaScript and TypeScript files; use \`old\``);
      const found = (await definitions(args.path, file.text)).filter((d) => d.name === args.definition);
      if (found.length === 0) return refused(`no definition named ${args.definition} in ${args.path}`);
      if (found.length > 1)
        return refused(
          `${found.length} definitions named ${args.definition} in ${args.path} (lines ${found.map((d) => d.startLine).join(', ')}); use \`old\``,
        );
      start = found[0]!.start;
      end = found[0]!.end;
    }
    const text = file.text.slice(0, start) + args.new + file.text.slice(end);
    const failed = await guardedWrite(workspace, args.path, file.text, text);
    if (failed) return failed;
    const line = file.text.slice(0, start).split('\n').length;
    return ok(`edited ${args.path} at line ${line}`);
  },
};

function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) at.push(i);
  return at;
}

const writeFileTool: AgentTool<{ path: string; content: string }> = {
  name: 'write_file',
  description: 'Create a file, or replace one whole, with `content`.',
  parameters: z.object({ path: z.string(), content: z.string() }),
  async run({ path, content }, workspace) {
    const existing = await workspace.readText(path);
    const before = existing instanceof Refused ? undefined : existing.text;
    const failed = await guardedWrite(workspace, path, before, content);
    if (failed) return failed;
    return ok(`${before === undefined ? 'created' : 'rewrote'} ${path} (${content.split('\n').length} lines)`);
  },
};

/** The tools that read and edit files; running tests and commands (sandboxed) are added beside them. */
export const FILE_TOOLS: readonly AgentTool[] = [listFiles, readFileTool, search, editFile, writeFileTool];

/**
 * Runs the tool a model called, if it was given that tool and its arguments fit the schema; a
 * call that does not is refused with what to do instead.
 */
export async function callTool(
  granted: readonly AgentTool[],
  name: string,
  args: unknown,
  workspace: Workspace,
): Promise<ToolOutcome> {
  const tool = granted.find((t) => t.name === name);
  if (!tool)
    return refused(
      `there is no tool ${JSON.stringify(name)} here; the tools are ${granted.map((t) => t.name).join(', ')}`,
    );
  const parsed = tool.parameters.safeParse(args ?? {});
  if (!parsed.success)
    return refused(
      `bad arguments for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}`,
    );
  try {
    return await tool.run(parsed.data, workspace);
  } catch (error) {
    // What the file system refuses (a name too long, a file where a folder must be) is the
    // call's outcome, said in the repository's terms: the agent can try another way.
    const message = (error instanceof Error ? error.message : String(error)).replaceAll(`${workspace.root}/`, '');
    return refused(`${name} failed: ${message.length > 400 ? `${message.slice(0, 400)}…` : message}`);
  }
}

/** The tools as a model is told of them: name, description and JSON schema of the arguments. */
export function toolSchemas(tools: readonly AgentTool[]) {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' }),
  }));
}

export interface CommandToolOptions {
  /** The repository's test command (defaultTestCommand finds one); without it run_tests says so. */
  readonly testCommand: string | undefined;
  readonly mode?: SandboxMode;
  readonly limits?: Partial<CommandLimits>;
  readonly nodePath?: readonly string[];
}

function describeRun(result: CommandResult): string {
  if (result.timedOut) return `stopped after ${result.seconds.toFixed(0)} s (the time limit)`;
  return `exit code ${result.exitCode}`;
}

/** `run` and `run_tests`: commands in the sandbox, on a throwaway copy of the workspace (runtimes/command.ts). */
export const MAX_COMMAND_CHARS = 32_768;

export function commandTools(options: CommandToolOptions): AgentTool[] {
  const sandbox = {
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.nodePath ? { nodePath: options.nodePath } : {}),
  };
  const run: AgentTool<{ command: string }> = {
    name: 'run',
    description:
      'Run a shell command in a sandbox (no network) on a copy of the repository; files it changes are not kept: edit with edit_file or write_file.',
    // A command travels in one environment variable, which Linux caps at 128 KiB.
    parameters: z.object({
      command: z
        .string()
        .min(1)
        .max(MAX_COMMAND_CHARS, `at most ${MAX_COMMAND_CHARS} characters: write a script with write_file and run that`),
    }),
    async run({ command }, workspace) {
      const result = await runSandboxed(workspace.root, command, sandbox);
      return { ok: result.exitCode === 0, output: `${describeRun(result)}\n${result.output}` };
    },
  };
  const runTests: AgentTool<Record<string, never>> = {
    name: 'run_tests',
    description: `Run the repository's tests${options.testCommand ? ` (\`${options.testCommand}\`)` : ''} in the sandbox: the counts, and each failing test's output.`,
    parameters: z.object({}),
    async run(_, workspace) {
      if (!options.testCommand)
        return refused('this repository has no test command (none was given and none was found); use run');
      const result = await runSandboxed(workspace.root, options.testCommand, sandbox);
      const summary = summarizeTests(result.output, result.exitCode);
      const head = `${summary.passed} passed, ${summary.failed} failed (${describeRun(result)})`;
      return {
        ok: summary.failed === 0 && result.exitCode === 0,
        output: summary.failed > 0 || result.exitCode !== 0 ? `${head}\n${summary.failures || result.output}` : head,
      };
    },
  };
  return [run, runTests];
}
