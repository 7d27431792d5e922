/**
 * FormAct's editing agent's tools, on one document held in memory (and mirrored to the
 * workspace, whose diff the run keeps): view it or its outline, edit it through the
 * syntax-aware editor (an edit that adds parse errors is refused and the document stays
 * byte-identical), write it whole, find and take a template, and render it through the
 * reviewer. Each accepted change is a line in the edit log, which the context compression
 * (compression.ts) keeps in place of the turns that made it.
 */
import { z } from 'zod';
import type { BrowserRuntime } from '../../browser/runtime.js';
import type { AgentTool, ToolOutcome } from '../../agents/tools.js';
import type { Workspace } from '../../agents/workspace.js';
import { applyEdit, docEditSchema, size, view } from './editor.js';
import type { Assets, DocIssue, Medium } from './issues.js';
import { outline } from './outline.js';
import { parseHtml } from './parse.js';
import { reviewDocument } from './review.js';
import type { TemplateLibrary } from './templates.js';
import { placeOf } from './verify.js';

/** The file the document is mirrored to in the agent's workspace. */
export const DOCUMENT_FILE = 'document.html';

/** The document being written, and what was done to it. */
export class DocumentState {
  /** One line per accepted change, in order. */
  readonly edits: string[] = [];
  /** The last review the agent asked for, as it was told. */
  lastReview: string | undefined;
  /** Bumped by every accepted change: the compression acts once per change. */
  version = 0;

  constructor(public source: string) {}

  /** Takes a new source (the edit was checked), logs it and mirrors it to the workspace. */
  async accept(source: string, summary: string, workspace: Workspace): Promise<void> {
    this.source = source;
    this.edits.push(summary);
    this.version++;
    this.lastReview = undefined;
    await workspace.writeText(DOCUMENT_FILE, source);
  }
}

const ok = (output: string): ToolOutcome => ({ ok: true, output });
const refused = (output: string): ToolOutcome => ({ ok: false, output });

const errorCount = (html: string) => parseHtml(html).errors.filter((e) => e.severity === 'error').length;

/** The edit call as a model sends it: one flat object (checked against the editor's union inside). */
const editArguments = z.object({
  op: z
    .enum(['replace', 'replace_inner', 'insert', 'remove', 'set_attribute', 'replace_text'])
    .describe(
      'replace: the element (outerHTML); replace_inner: its content; insert: html before/after/prepend/append; remove; set_attribute (value null removes it); replace_text: exact source text, once',
    ),
  selector: z.string().optional().describe('CSS selector of the element (every op but replace_text)'),
  html: z.string().optional().describe('the new HTML (replace, replace_inner, insert)'),
  position: z.enum(['before', 'after', 'prepend', 'append']).optional().describe('insert: where'),
  name: z.string().optional().describe('set_attribute: the attribute'),
  value: z.string().nullable().optional().describe('set_attribute: its value, null to remove it'),
  find: z.string().optional().describe('replace_text: the exact text of the source to replace (once)'),
  replace: z.string().optional().describe('replace_text: what takes its place'),
  all: z.boolean().optional().describe('edit every element the selector matches'),
});

export interface DocumentToolsOptions {
  readonly runtime: BrowserRuntime;
  readonly templates: TemplateLibrary;
  readonly media: readonly Medium[];
  readonly assets: Assets;
}

/** What the reviewer found, as the agent reads it. */
export function describeIssues(
  issues: readonly DocIssue[],
  pages: Partial<Record<Medium, number>>,
  limit = 20,
): string {
  const printed = Object.entries(pages)
    .filter(([m]) => m !== 'screen')
    .map(([m, n]) => `${n} ${m === 'a4' ? 'A4' : 'Letter'} page${n === 1 ? '' : 's'}`);
  const head = printed.length ? `Rendered on ${printed.join(', ')}.` : 'Rendered.';
  if (issues.length === 0) return `${head} The reviewer finds no issue.`;
  const errors = issues.filter((i) => i.severity === 'error').length;
  const lines = issues.slice(0, limit).map((i) => `- ${i.severity} ${i.type} at ${placeOf(i)}: ${i.message}`);
  const more = issues.length > limit ? [`- … and ${issues.length - limit} more`] : [];
  return [
    `${head} The reviewer finds ${errors} error${errors === 1 ? '' : 's'} and ${issues.length - errors} warning${issues.length - errors === 1 ? '' : 's'}:`,
    ...lines,
    ...more,
  ].join('\n');
}

export function documentTools(state: DocumentState, options: DocumentToolsOptions): AgentTool[] {
  const viewTool: AgentTool<{ selector?: string | undefined }> = {
    name: 'view_document',
    description: 'Show the document with line numbers, or only the elements a CSS selector matches.',
    parameters: z.object({ selector: z.string().optional().describe('a CSS selector (default: the whole document)') }),
    async run({ selector }) {
      if (state.source === '') return ok('the document is empty: write_document or use_template to start it');
      const shown = view(state.source, selector);
      return shown.ok ? ok(shown.text) : refused(shown.reason);
    },
  };
  const outlineTool: AgentTool<Record<string, never>> = {
    name: 'outline_document',
    description: 'A map of the document: headings, blocks with the selectors to edit them by, tables, images.',
    parameters: z.object({}),
    async run() {
      return ok(state.source === '' ? 'the document is empty' : outline(state.source));
    },
  };
  const editTool: AgentTool<z.infer<typeof editArguments>> = {
    name: 'edit_document',
    description:
      'Edit the document by CSS selector. An edit that would add HTML parse errors, or that matches no element (or several, without all), is refused and the document stays as it was.',
    parameters: editArguments,
    async run(args, workspace) {
      const edit = docEditSchema.safeParse(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)));
      if (!edit.success)
        return refused(
          `not an edit: ${edit.error.issues.map((i) => `${i.path.join('.') || 'edit'}: ${i.message}`).join('; ')}`,
        );
      const outcome = applyEdit(state.source, edit.data);
      if (!outcome.ok) return refused(`refused, the document is unchanged: ${outcome.reason}`);
      await state.accept(outcome.source, outcome.summary, workspace);
      return ok(`${outcome.summary}; the document is now ${size(outcome.source.length)}`);
    },
  };
  const writeTool: AgentTool<{ html: string }> = {
    name: 'write_document',
    description:
      'Replace the whole document (to start it, or to rewrite it). Refused when it has more HTML parse errors than the document it replaces.',
    parameters: z.object({ html: z.string().min(1).describe('the complete HTML document') }),
    async run({ html }, workspace) {
      const [before, after] = [state.source === '' ? 0 : errorCount(state.source), errorCount(html)];
      if (after > before) {
        const first = parseHtml(html).errors.find((e) => e.severity === 'error')!;
        return refused(
          `refused, the document is unchanged: the new one has ${after} parse error${after === 1 ? '' : 's'} (the first: ${first.message})`,
        );
      }
      await state.accept(html, `wrote the whole document (${size(html.length)})`, workspace);
      return ok(`the document is now ${size(html.length)}`);
    },
  };
  const findTool: AgentTool<{ query: string }> = {
    name: 'find_templates',
    description: 'Search the template library (BM25 over names, descriptions, keywords, headings and text).',
    parameters: z.object({ query: z.string().min(1).describe('what the document is: "invoice with line items"') }),
    async run({ query }) {
      const hits = options.templates.search(query, 3);
      if (hits.length === 0) return ok(`no template matches; templates: ${options.templates.names().join(', ')}`);
      return ok(hits.map((h) => `- ${h.name} (score ${h.score.toFixed(2)}): ${h.description}`).join('\n'));
    },
  };
  const useTool: AgentTool<{ name: string }> = {
    name: 'use_template',
    description: 'Start the document from a template (it replaces the document); then adapt it to the task.',
    parameters: z.object({ name: z.string().min(1) }),
    async run({ name }, workspace) {
      const template = options.templates.get(name);
      if (!template) return refused(`no template ${name}; templates: ${options.templates.names().join(', ')}`);
      await state.accept(template.html, `started from the template ${name}`, workspace);
      return ok(`the document is now the template ${name}:\n${outline(template.html, 3000)}`);
    },
  };
  const renderTool: AgentTool<Record<string, never>> = {
    name: 'render',
    description:
      'Render the document (printed on A4 and Letter, and on a screen) and review the pages: overflow, overlap, broken images, contrast, tables too wide, headings alone at a page bottom, parse errors, heading order.',
    parameters: z.object({}),
    async run() {
      if (state.source === '') return refused('the document is empty: write_document or use_template first');
      const review = await reviewDocument(options.runtime, state.source, {
        media: options.media,
        assets: options.assets,
      });
      if (review.abort) return refused(`the document did not render: ${review.abort.message}`);
      state.lastReview = describeIssues(review.issues, review.pages);
      return ok(state.lastReview);
    },
  };
  return [viewTool, outlineTool, editTool, writeTool, findTool, useTool, renderTool];
}
