/**
 * Judging one document: the reviewer renders it on every medium of the task and reports its
 * issues; an error-level issue fails the suite it belongs to, a warning does not (it is fed
 * back all the same). Suites: `parse` (the HTML parses without errors), `review/document`
 * (what holds on every medium: contrast, heading order, images), one per medium
 * (`review/a4`, `review/letter`, `review/screen`: what the page geometry shows), and `content`
 * when the task says what the document must show. The gated reward: parses → renders (no
 * loop, no crash) → the suites.
 */
import type { Abort, BrowserRuntime } from '../../browser/runtime.js';
import type { Status, SuiteVerdict, Verdict } from '../../core/verdict.js';
import type { FailureFact } from '../../feedback/facts.js';
import { gatedReward } from '../../rl/gated-reward.js';
import { gatedLevels } from '../gated-levels.js';
import { describeExpectation, type Expectation } from '../games/plan.js';
import { runStep } from '../games/play.js';
import type { Checks, Report, VerifyOptions } from '../types.js';
import { SEVERITY_RANK, type DocIssue, type Medium } from './issues.js';
import { reviewDocument } from './review.js';
import type { DocTask } from './task.js';

export interface DocChecks extends Checks<DocTask> {
  readonly media: readonly Medium[];
  readonly expect: readonly Expectation[];
}

/** A document's report: the pack's, with every issue the reviewer found (warnings included) and the pages printed. */
export interface DocReport extends Report {
  readonly issues: readonly DocIssue[];
  readonly pages: Partial<Record<Medium, number>>;
}

export const PARSE_SUITE = 'parse';
export const DOCUMENT_SUITE = 'review/document';
export const CONTENT_SUITE = 'content';
export const mediumSuite = (medium: Medium) => `review/${medium}`;

const MEDIUM_NAMES: Record<Medium, string> = { a4: 'A4', letter: 'Letter', screen: 'screen' };

/** Where an issue is, for a person: "div.note (A4, page 2)". */
export function placeOf(issue: DocIssue): string {
  const where = [
    issue.medium ? MEDIUM_NAMES[issue.medium] : undefined,
    issue.page !== null && issue.medium !== 'screen' && issue.medium !== null ? `page ${issue.page}` : undefined,
  ].filter(Boolean);
  return `${issue.selector || 'the source'}${where.length ? ` (${where.join(', ')})` : ''}`;
}

export async function verifyDocument(
  runtime: BrowserRuntime,
  checks: DocChecks,
  html: string,
  options: VerifyOptions = {},
): Promise<DocReport> {
  const started = performance.now();
  if (!/<[a-z!]/i.test(html))
    return reportOf(checks, { issues: [], pages: {}, content: [], notHtml: true }, started, options);
  try {
    const review = await reviewDocument(runtime, html, {
      media: checks.media,
      assets: checks.task.assets,
      scripts: checks.task.scripts,
    });
    if (review.abort)
      return reportOf(checks, { issues: [], pages: {}, content: [], abort: review.abort }, started, options);
    const content =
      checks.expect.length > 0 && !options.signal?.aborted ? await checkContent(runtime, checks, html) : [];
    if ('abort' in content)
      return reportOf(
        checks,
        { issues: review.issues, pages: review.pages, content: [], abort: content.abort },
        started,
        options,
      );
    return reportOf(checks, { issues: review.issues, pages: review.pages, content }, started, options);
  } catch (error) {
    return noVerdict(checks, `the browser failed: ${(error as Error).message}`, started);
  }
}

/** Each of the task's assertions on the screen rendering: undefined where it holds, else what the page showed. */
async function checkContent(
  runtime: BrowserRuntime,
  checks: DocChecks,
  html: string,
): Promise<Array<{ expected: string; actual: string } | undefined> | { abort: Abort }> {
  const judged = await runtime.judge(
    html,
    async (session) => {
      await session.load();
      const outcomes = [];
      for (const expectation of checks.expect) {
        const outcome = await runStep(session, { expect: expectation });
        outcomes.push(
          outcome && {
            expected: outcome.expected ?? describeExpectation(expectation),
            actual: outcome.actual ?? outcome.message ?? 'it does not hold',
          },
        );
      }
      return outcomes;
    },
    { assets: checks.task.assets, scripts: checks.task.scripts },
  );
  return 'abort' in judged ? judged : judged.value;
}

interface Judged {
  readonly issues: readonly DocIssue[];
  readonly pages: Partial<Record<Medium, number>>;
  readonly content: ReadonlyArray<{ expected: string; actual: string } | undefined>;
  readonly abort?: Abort;
  readonly notHtml?: boolean;
}

/** The suite an issue counts against. */
function suiteOf(issue: DocIssue): string {
  if (issue.type === 'parse-error') return PARSE_SUITE;
  return issue.medium === null ? DOCUMENT_SUITE : mediumSuite(issue.medium);
}

function reportOf(checks: DocChecks, judged: Judged, started: number, options: VerifyOptions): DocReport {
  const rendered = !judged.abort && !judged.notHtml;
  const names = [PARSE_SUITE, DOCUMENT_SUITE, ...checks.media.map(mediumSuite)];
  const errors = judged.issues.filter((i) => i.severity === 'error');
  const suites: SuiteVerdict[] = [];
  const failures: FailureFact[] = [];
  for (const name of names) {
    const found = errors.filter((i) => suiteOf(i) === name);
    const unjudged = name === PARSE_SUITE ? judged.notHtml : !rendered;
    const status: Status = unjudged ? (judged.abort?.status ?? 'error') : found.length ? 'fail' : 'pass';
    const first = found[0];
    const failure =
      status === 'pass'
        ? null
        : {
            input: null,
            expected: null,
            actual: null,
            message: first
              ? `${first.type} at ${placeOf(first)}: ${first.message}`
              : (judged.abort?.message ?? 'this is not an HTML document'),
          };
    suites.push({ name, status, passed: status === 'pass' ? 1 : 0, total: 1, firstFailure: failure });
    for (const issue of found)
      failures.push({
        check: `${name}: ${issue.type}`,
        input: null,
        expected: null,
        actual: null,
        message: `${issue.type} at ${placeOf(issue)}: ${issue.message}`,
      });
  }
  if (judged.abort || judged.notHtml)
    failures.unshift({
      check: 'the document renders',
      input: null,
      expected: null,
      actual: null,
      message: judged.abort?.message ?? 'this is not an HTML document',
    });
  if (checks.expect.length > 0) {
    const missed = judged.content.filter((c) => c !== undefined);
    const status: Status = !rendered ? (judged.abort?.status ?? 'error') : missed.length ? 'fail' : 'pass';
    const first = missed[0];
    suites.push({
      name: CONTENT_SUITE,
      status,
      passed: rendered ? checks.expect.length - missed.length : 0,
      total: checks.expect.length,
      firstFailure:
        status === 'pass'
          ? null
          : {
              input: null,
              expected: first?.expected ?? null,
              actual: first?.actual ?? null,
              message: 'the document does not show what the task asks',
            },
    });
    for (const c of missed)
      failures.push({
        check: 'content',
        input: null,
        expected: c.expected,
        actual: c.actual,
        message: `the document should have ${c.expected}; it has ${c.actual}`,
      });
  }
  const parses = !judged.notHtml && !errors.some((i) => i.type === 'parse-error');
  const levels = gatedLevels({
    parses,
    loads: { loaded: rendered ? 1 : 0, of: 1 },
    units: suites
      .filter((s) => s.name !== PARSE_SUITE)
      .map((s) => ({ status: s.status, passed: s.passed, total: s.total, public: true })),
  });
  const failing = suites.find((s) => s.status !== 'pass');
  const verdict: Verdict = {
    status: failing?.status ?? 'pass',
    suites,
    firstFailure: failing?.firstFailure ?? null,
    timeMs: Math.round(performance.now() - started),
    ...(judged.abort ? { loadFailure: judged.abort.message } : {}),
  };
  return {
    verdict,
    passed: !failing,
    unchecked: false,
    failures,
    publicChecks: { passed: suites.filter((s) => s.status === 'pass').length, total: suites.length },
    levels,
    reward: gatedReward(levels, options.weights),
    issues: [...judged.issues].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]),
    pages: judged.pages,
  };
}

function noVerdict(checks: DocChecks, reason: string, started: number): DocReport {
  const levels = gatedLevels({ parses: true, loads: { loaded: 0, of: 1 }, units: [], noVerdict: reason });
  return {
    verdict: { status: 'no-verdict', suites: [], firstFailure: null, timeMs: Math.round(performance.now() - started) },
    passed: false,
    unchecked: false,
    failures: [],
    publicChecks: { passed: 0, total: checks.media.length + 2 },
    levels,
    reward: gatedReward(levels),
    noVerdict: reason,
    issues: [],
    pages: {},
  };
}
