/**
 * Reading the documents `crucible report` is given. Every way a user's file can be wrong
 * (missing, a folder, not JSON, JSONL samples, JSON of something else) gets a message that
 * says what to give instead.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { documentKind, type DocumentKind } from './kinds.js';

/** One document as the report embeds it. */
export interface ReportDocument {
  /** What the report calls it: the file's name. */
  readonly name: string;
  readonly kind: DocumentKind;
  readonly document: object;
}

const WHAT_TO_GIVE = 'give the JSON file a crucible command wrote (crucible eval --json FILE)';

export async function readReportDocument(path: string): Promise<ReportDocument> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
    throw new Error(`cannot read ${path}: ${why}; ${WHAT_TO_GIVE}`);
  }
  // A gzipped document (results.json.gz) is read as it is.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (looksLikeJsonl(text))
      throw new Error(
        `${path} holds one JSON value per line (JSONL: samples or a dataset?), not a results document; ${WHAT_TO_GIVE}`,
      );
    throw new Error(`${path} is not JSON (${(error as Error).message}); ${WHAT_TO_GIVE}`);
  }
  const kind = documentKind(value);
  if (kind === undefined)
    throw new Error(
      `${path} is JSON but not a document crucible wrote (eval, select, calibrate, audit or solve); ${WHAT_TO_GIVE}`,
    );
  return { name: basename(path), kind, document: value as object };
}

function looksLikeJsonl(text: string): boolean {
  const lines = text.split('\n', 3).filter((line) => line.trim() !== '');
  if (lines.length < 2) return false;
  try {
    for (const line of lines) JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}
