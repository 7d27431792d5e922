/** The HTML report of Crucible's JSON documents (see html.ts; the browser app is in app/). */
export { documentKind, DOCUMENT_KINDS, type DocumentKind } from './kinds.js';
export { readReportDocument, type ReportDocument } from './read.js';
export { encodePayload, reportHtml, type ReportPayload } from './html.js';
export { writeHtmlReport, writeReport } from './write.js';
export { storedRunDocument } from './stored-run.js';
