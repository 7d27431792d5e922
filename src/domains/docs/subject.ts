/**
 * A docs task as a strategy's subject: the document is written, rendered and reviewed through
 * the docs pack, and revised with what the reviewer found. `sample`, `repair` and `best-of-n`
 * write it whole; `formact` edits it with tools (formact.ts).
 */
import type { BrowserRuntime } from '../../browser/runtime.js';
import { describeIssues } from './agent-tools.js';
import { docsPack, type DocChecks, type DocReport, type DocTask } from './index.js';
import type { Report } from '../types.js';
import type { ChatMessage } from '../../models/index.js';
import { revision, type Subject } from '../subject.js';

export interface DocsSubject extends Subject<DocTask, DocChecks> {
  readonly runtime: BrowserRuntime;
}

export const DOCS_SYSTEM =
  'You are a careful document designer. You write professional documents as one complete HTML file: styles inline in the document, print CSS with @page, content that fits both A4 and US Letter pages and reads well on a screen, headings in order, text with enough contrast, tables and images that fit their pages.';
const FORM =
  'Reply with the complete document as one HTML file in one ```html code block: inline styles, nothing loaded from elsewhere except the assets named.';

/** What the task brings beside its prompt: the assets it serves, and the draft to start from. */
export function taskContext(task: DocTask): string {
  const parts: string[] = [];
  if (task.assets.size)
    parts.push(
      `Files you may use, at these relative paths (nothing else loads): ${[...task.assets.keys()].join(', ')}.`,
    );
  if (task.expect.length)
    parts.push(
      `The document must have: ${task.expect.map((e) => e.selector + (e.text_contains ? ` containing "${e.text_contains}"` : e.text ? ` reading "${e.text}"` : '')).join('; ')}.`,
    );
  if (task.draft !== undefined) parts.push(`Start from this draft:\n\n\`\`\`html\n${task.draft}\n\`\`\``);
  return parts.join('\n\n');
}

export function docsSubject(runtime: BrowserRuntime, task: DocTask, checks?: DocChecks): DocsSubject {
  const solveMessages = (): ChatMessage[] => [
    { role: 'system', content: DOCS_SYSTEM },
    { role: 'user', content: [task.prompt.trim(), taskContext(task), FORM].filter(Boolean).join('\n\n') },
  ];
  return {
    task,
    runtime,
    pack: docsPack(runtime),
    ...(checks ? { checks } : {}),
    solveMessages,
    repairMessages: (reply, feedback) => revision(solveMessages(), reply, feedback),
    feedback: (report) => docsFeedback(report, FORM),
    noArtifact: `Your reply has no HTML document. ${FORM}`,
  };
}

export function isDocsSubject(subject: Subject): subject is DocsSubject {
  return subject.pack.name === 'docs' && 'runtime' in subject;
}

/** What the reviewer found, every issue (warnings too), and what the content checks missed. */
export function docsFeedback(report: Report, form: string): { text: string; fact: unknown } | undefined {
  const fact = report.failures[0];
  if (!fact) return undefined;
  const issues = (report as Partial<DocReport>).issues ?? [];
  const pages = (report as Partial<DocReport>).pages ?? {};
  const content = report.failures.filter((f) => f.check === 'content').map((f) => `- ${f.message}`);
  const lines = [
    report.verdict.loadFailure
      ? `Your document did not render: ${report.verdict.loadFailure}`
      : describeIssues(issues, pages),
    ...(content.length ? ['', 'The content the task asks for is not all there:', ...content] : []),
    '',
    `Fix every error (and the warnings where you can) without breaking what works. ${form}`,
  ];
  return { text: lines.join('\n'), fact };
}
