/**
 * The docs pack (FormAct): a model writes a professional document as one HTML file; Crucible
 * renders it in chromium, printed on A4 and Letter and on a screen, and its reviewer reports
 * what a reader would see is wrong (README.md beside this file). Bound to a BrowserRuntime.
 * Documents have no probes to vote on: two documents are compared by their reviews, not by
 * what they do on an input.
 */
import type { BrowserRuntime } from '../../browser/runtime.js';
import type { DomainPack } from '../types.js';
import { extractHtmlDocument } from '../html-document.js';
import { MEDIA } from './issues.js';
import type { DocTask } from './task.js';
import { CONTENT_SUITE, DOCUMENT_SUITE, mediumSuite, PARSE_SUITE, verifyDocument, type DocChecks } from './verify.js';

export { ISSUE_TYPES, MEDIA, type DocIssue, type IssueType, type Medium, type Severity } from './issues.js';
export { docTaskOf, isDocTaskFile, readDocTasks, type DocTask } from './task.js';
export {
  CONTENT_SUITE,
  DOCUMENT_SUITE,
  mediumSuite,
  PARSE_SUITE,
  placeOf,
  verifyDocument,
  type DocChecks,
  type DocReport,
} from './verify.js';

export type DocsPack = DomainPack<DocTask, string, DocChecks>;

const MEDIUM_NAMES = { a4: 'A4', letter: 'Letter', screen: 'screen' } as const;

export function docsPack(runtime: BrowserRuntime): DocsPack {
  return {
    name: 'docs',
    extract(_task, reply) {
      const html = extractHtmlDocument(reply);
      return html === undefined ? undefined : { artifact: html, form: 'html document' };
    },
    async prepare(task) {
      const media = task.media.length ? task.media : MEDIA;
      const expect = task.expect;
      return {
        task,
        media,
        expect,
        // Nothing is hidden from a solver: the reviewer is the same for everyone.
        publicSuites: new Set([
          PARSE_SUITE,
          DOCUMENT_SUITE,
          ...media.map(mediumSuite),
          ...(expect.length ? [CONTENT_SUITE] : []),
        ]),
        description: `the reviewer on ${media.map((m) => MEDIUM_NAMES[m]).join(', ')}${expect.length ? `, ${expect.length} content assertion${expect.length === 1 ? '' : 's'}` : ''}`,
        count: media.length + expect.length,
      };
    },
    verify: (checks, html, options) => verifyDocument(runtime, checks, html, options),
    probes: () => [],
    async observe(_checks, artifacts) {
      return { keys: artifacts.map(() => []), breaksProperty: artifacts.map(() => false), properties: 0 };
    },
    neighbours: () => [],
  };
}
