/**
 * Tools the agent writes itself (OpenSage's self-made toolkits), trusted only once verified: the
 * agent gives a tool's Python code (a `run(args)` function returning text) and its tests; the
 * tests run in the sandbox, and only when they all pass is the tool added to the agent's tools.
 * A self-made tool then runs only in the sandbox, on a throwaway copy of the workspace, like any
 * command: it can read the repository, never change it. Its verdict is in the trace (the
 * create_tool call's output) and in its description.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { runSandboxed, type CommandLimits } from '../runtimes/command.js';
import type { SandboxMode } from '../runtimes/sandbox.js';
import { summarizeTests } from './test-summary.js';
import type { AgentTool } from './tools.js';

export const CREATE_TOOL = 'create_tool';
/** Largest tool code, tests included (the code travels in the command line to the sandbox). */
const MAX_CODE_BYTES = 32 << 10;
const MODULE = 'agent_tool';

export interface SelfMadeToolOptions {
  readonly mode?: SandboxMode;
  readonly limits?: Partial<CommandLimits>;
}

const createArgs = z.object({
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_]{1,39}$/, 'a lower-case name of letters, digits and _ (2 to 40 characters)')
    .describe('the new tool’s name'),
  description: z.string().min(1).describe('what the tool does, for whoever calls it'),
  code: z
    .string()
    .min(1)
    .describe(`Python: a function run(args: dict) -> str; it runs with the repository as its working folder`),
  tests: z
    .string()
    .min(1)
    .describe(`Python unittest tests of it (\`from ${MODULE} import run\`); the tool is added only when they all pass`),
});

/** `create_tool`: verifies a tool the agent wrote and, when its tests pass, adds it to `toolbox`. */
export function createToolTool(toolbox: AgentTool[], options: SelfMadeToolOptions = {}): AgentTool {
  const sandbox = {
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  };
  return {
    name: CREATE_TOOL,
    description:
      'Make a tool of your own: Python code defining run(args: dict) -> str, with unittest tests. The tests run in the sandbox; the tool is added to your tools only if they all pass, and it runs in the sandbox on a copy of the repository.',
    parameters: createArgs,
    async run(args: z.infer<typeof createArgs>) {
      if (toolbox.some((tool) => tool.name === args.name))
        return { ok: false, output: `a tool named ${args.name} exists already; choose another name` };
      if (Buffer.byteLength(args.code) + Buffer.byteLength(args.tests) > MAX_CODE_BYTES)
        return { ok: false, output: `the code and tests are more than ${MAX_CODE_BYTES} bytes; make the tool smaller` };
      const dir = await mkdtemp(join(tmpdir(), 'crucible-agent-tool-'));
      try {
        await writeFile(join(dir, `${MODULE}.py`), args.code);
        await writeFile(join(dir, `test_${MODULE}.py`), args.tests);
        const result = await runSandboxed(dir, `python3 -m unittest discover -p "test_*.py"`, sandbox);
        const tests = summarizeTests(result.output, result.timedOut ? null : result.exitCode);
        const verdict = `${tests.passed} passed, ${tests.failed} failed`;
        if (tests.runner === 'unknown' || tests.failed > 0 || tests.passed === 0 || result.exitCode !== 0)
          return {
            ok: false,
            output: `not added: its tests did not all pass (${verdict}${result.timedOut ? ', stopped at the time limit' : ''})\n${tests.failures || result.output}`,
          };
        toolbox.push(selfMadeTool(args, verdict, sandbox));
        return { ok: true, output: `added the tool ${args.name} (its tests: ${verdict}); call it with its arguments` };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

function selfMadeTool(
  made: z.infer<typeof createArgs>,
  verdict: string,
  sandbox: { mode?: SandboxMode; limits?: Partial<CommandLimits> },
): AgentTool {
  const code = Buffer.from(made.code).toString('base64');
  return {
    name: made.name,
    description: `${made.description} (made by the agent; its tests: ${verdict})`,
    parameters: z.record(z.string(), z.unknown()).describe('the arguments, as the tool’s run(args) reads them'),
    async run(args, workspace) {
      const input = Buffer.from(JSON.stringify(args)).toString('base64');
      // The tool's code and arguments travel in the command; it runs on a copy of the workspace.
      const script = `import base64, json; ns = {}; exec(compile(base64.b64decode('${code}').decode(), '${MODULE}.py', 'exec'), ns); print(ns['run'](json.loads(base64.b64decode('${input}').decode())))`;
      const result = await runSandboxed(workspace.root, `python3 -c "${script}"`, sandbox);
      if (result.timedOut) return { ok: false, output: `the tool ran past its time limit\n${result.output}` };
      return { ok: result.exitCode === 0, output: result.output.replace(/\n$/, '') };
    },
  };
}
