/**
 * The agent's graph memory (OpenSage's knowledge graph, without embeddings): files, the symbols
 * they define, failing tests, edits, facts the agent recorded and the summaries of turns taken
 * out of its context, as nodes with typed edges (defines, tests, changed-by, explains, mentions).
 * graphology holds the graph; minisearch indexes the nodes' text (BM25 with prefix and fuzzy
 * matching) so that `recall` finds nodes by text and then their neighbours. The graph is filled
 * from what the tools return, so the agent need not remember to remember; `remember` adds a fact.
 * It is kept with the run (solve-repository.ts puts it in the run's summary).
 */
import { MultiDirectedGraph } from 'graphology';
import MiniSearch from 'minisearch';
import { z } from 'zod';
import { definitions } from './syntax.js';
import type { AgentTool } from './tools.js';
import { Refused, type Workspace } from './workspace.js';

export const NODE_KINDS = ['file', 'symbol', 'test', 'edit', 'fact', 'turn'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];
export const EDGE_KINDS = ['defines', 'tests', 'changed-by', 'explains', 'mentions'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

export interface MemoryNode {
  readonly kind: NodeKind;
  /** What retrieval shows and searches. */
  readonly text: string;
}

export interface RecalledNode extends MemoryNode {
  readonly id: string;
  /** How it was found: matching the query, or as the neighbour of a match (and by which edge). */
  readonly via: 'text' | `${EdgeKind} ${string}`;
}

const MAX_TEXT = 400;
const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

export class MemoryGraph {
  private readonly graph = new MultiDirectedGraph();
  private readonly index = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    // Identifiers are words too: snake_case and camelCase split.
    tokenize: (text) => text.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])|_/).filter(Boolean),
    searchOptions: { prefix: true, fuzzy: 0.2 },
  });
  private edits = 0;
  private facts = 0;
  private turns = 0;

  get size(): { nodes: number; edges: number } {
    return { nodes: this.graph.order, edges: this.graph.size };
  }

  private node(id: string, node: MemoryNode): string {
    const text = clip(node.text);
    if (this.graph.hasNode(id)) {
      this.graph.replaceNodeAttributes(id, { ...node, text });
      this.index.discard(id);
    } else this.graph.addNode(id, { ...node, text });
    this.index.add({ id, text: `${id} ${text}` });
    return id;
  }

  private edge(from: string, to: string, kind: EdgeKind): void {
    const exists = this.graph.directedEdges(from, to).some((e) => this.graph.getEdgeAttribute(e, 'kind') === kind);
    if (!exists) this.graph.addDirectedEdge(from, to, { kind });
  }

  /** A file the agent read or wrote, and what it defines. */
  async file(path: string, text: string): Promise<void> {
    const file = this.node(`file:${path}`, { kind: 'file', text: `${path} (${text.split('\n').length} lines)` });
    for (const d of await definitions(path, text)) {
      const line = text.split('\n')[d.startLine - 1]?.trim() ?? d.name;
      const symbol = this.node(`symbol:${path}:${d.name}`, {
        kind: 'symbol',
        text: `${d.name} in ${path}, lines ${d.startLine}-${d.endLine}: ${line}`,
      });
      this.edge(file, symbol, 'defines');
    }
  }

  /** An edit of a file. */
  edited(path: string, what: string): void {
    const edit = this.node(`edit:${++this.edits}`, { kind: 'edit', text: `${path}: ${what}` });
    this.edge(`file:${path}`, edit, 'changed-by');
  }

  /** A failing test, and the files its output names. */
  failingTest(name: string, output: string, files: readonly string[]): void {
    const test = this.node(`test:${name}`, { kind: 'test', text: `${name} fails: ${output}` });
    for (const path of files) if (this.graph.hasNode(`file:${path}`)) this.edge(test, `file:${path}`, 'tests');
  }

  /** A fact the agent recorded, about files or symbols (by path, or name). */
  fact(text: string, about: readonly string[]): string {
    const fact = this.node(`fact:${++this.facts}`, { kind: 'fact', text });
    for (const target of this.resolve(about)) this.edge(fact, target, 'explains');
    return fact;
  }

  /** A turn taken out of the context: what it was, linked to what it mentions. */
  turn(summary: string): void {
    const turn = this.node(`turn:${++this.turns}`, { kind: 'turn', text: summary });
    for (const target of this.mentioned(summary)) this.edge(turn, target, 'mentions');
  }

  /** Nodes whose text matches `query`, best first, then their neighbours, up to `limit`. */
  recall(query: string, limit = 12): RecalledNode[] {
    const found: RecalledNode[] = [];
    const seen = new Set<string>();
    const add = (id: string, via: RecalledNode['via']) => {
      if (seen.has(id) || found.length >= limit) return;
      seen.add(id);
      const { kind, text } = this.graph.getNodeAttributes(id) as MemoryNode;
      found.push({ id, kind, text, via });
    };
    const hits = this.index.search(query).map((hit) => String(hit.id));
    for (const id of hits) add(id, 'text');
    for (const id of hits.slice(0, limit))
      this.graph.forEachEdge(id, (edge, attributes, source, target) => {
        const other = source === id ? target : source;
        add(other, `${attributes.kind as EdgeKind} ${id}`);
      });
    return found;
  }

  toJSON(): { nodes: Array<{ id: string } & MemoryNode>; edges: Array<{ from: string; to: string; kind: EdgeKind }> } {
    return {
      nodes: this.graph.mapNodes((id, attributes) => ({ id, ...(attributes as MemoryNode) })),
      edges: this.graph.mapEdges((_, attributes, from, to) => ({ from, to, kind: attributes.kind as EdgeKind })),
    };
  }

  /** File and symbol nodes named by paths or symbol names. */
  private resolve(names: readonly string[]): string[] {
    const ids: string[] = [];
    for (const name of names) {
      if (this.graph.hasNode(`file:${name}`)) ids.push(`file:${name}`);
      this.graph.forEachNode((id, attributes) => {
        if ((attributes as MemoryNode).kind === 'symbol' && (id.endsWith(`:${name}`) || id.endsWith(`.${name}`)))
          ids.push(id);
      });
    }
    return ids;
  }

  /** The files and symbols a text names. */
  private mentioned(text: string): string[] {
    const ids: string[] = [];
    this.graph.forEachNode((id, attributes) => {
      const kind = (attributes as MemoryNode).kind;
      if (kind === 'file' && text.includes(id.slice('file:'.length))) ids.push(id);
      if (kind === 'symbol' && new RegExp(`\\b${escape(id.split(':').pop()!)}\\b`).test(text)) ids.push(id);
    });
    return ids;
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `remember` and `recall`: the agent's own use of its memory. */
export function memoryTools(memory: MemoryGraph): AgentTool[] {
  const remember: AgentTool<{ fact: string; about?: string[] | undefined }> = {
    name: 'remember',
    description:
      'Record a fact worth keeping (a cause found, a decision, what a function must do), about files or symbols; recall finds it later, even after older turns leave the context.',
    parameters: z.object({
      fact: z.string().min(1),
      about: z.array(z.string()).optional().describe('paths or function names it is about'),
    }),
    async run({ fact, about }) {
      memory.fact(fact, about ?? []);
      return { ok: true, output: 'remembered' };
    },
  };
  const recall: AgentTool<{ query: string }> = {
    name: 'recall',
    description:
      'Search your memory: files read, their functions, failing tests, edits, facts you recorded and summaries of earlier turns, with their neighbours.',
    parameters: z.object({ query: z.string().min(1) }),
    async run({ query }) {
      const found = memory.recall(query);
      if (found.length === 0) return { ok: true, output: `nothing in memory matches ${JSON.stringify(query)}` };
      return {
        ok: true,
        output: found.map((n) => `[${n.kind}] ${n.text}${n.via === 'text' ? '' : `  (${n.via})`}`).join('\n'),
      };
    },
  };
  return [remember, recall];
}

/** Test names in a failing run's output: unittest's `FAIL: name (...)`, node:test's `not ok N - name`, pytest's `FAILED path::name`. */
const FAILED_TEST = /^(?:FAIL|ERROR): (\S+)|^\s*not ok \d+ - (.+)$|^FAILED (\S+)/gm;

/** What a tool call tells the memory: the files read and written, the edits, the failing tests. */
export async function observeToolCall(
  memory: MemoryGraph,
  call: { readonly name: string; readonly input: unknown },
  result: { readonly ok: boolean; readonly output: string },
  workspace: Workspace,
): Promise<void> {
  const path = (call.input as { path?: unknown } | null)?.path;
  if (typeof path === 'string' && result.ok && ['read_file', 'edit_file', 'write_file'].includes(call.name)) {
    const file = await workspace.readText(path);
    if (!(file instanceof Refused)) await memory.file(path, file.text);
    if (call.name !== 'read_file') {
      const {
        old,
        new: replacement,
        definition,
      } = call.input as { old?: unknown; new?: unknown; definition?: unknown };
      const what =
        typeof old === 'string'
          ? `${JSON.stringify(old.slice(0, 80))} → ${JSON.stringify(String(replacement).slice(0, 80))}`
          : typeof definition === 'string'
            ? `the definition ${definition} replaced`
            : 'rewritten';
      memory.edited(path, `${what} (${result.output})`);
    }
  }
  if (call.name === 'run_tests' && !result.ok) {
    const files = memory.toJSON().nodes.filter((n) => n.kind === 'file' && result.output.includes(n.id.slice(5)));
    for (const match of result.output.matchAll(FAILED_TEST)) {
      const name = (match[1] ?? match[2] ?? match[3])!.trim();
      const at = match.index ?? 0;
      memory.failingTest(
        name,
        result.output.slice(at, at + 300),
        files.map((f) => f.id.slice(5)),
      );
    }
  }
}
