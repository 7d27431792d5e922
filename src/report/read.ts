/**
 * Reading the documents `crucible report` is given. Every way a user's file can be wrong
 * (missing, a folder, not JSON, JSONL samples, JSON of something else) gets a message that
 * says what to give instead.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { documentKind, type ReportDocument } from './kinds.js';
import { storedRunDocument } from './stored-run.js';

export type { ReportDocument };

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

/**
 * A recorded run from the run store at `db` (`idOrPrefix`: its id or the start of one, as
 * `crucible show` takes): a command's run as the document it wrote, any other as the run with
 * its events (see stored-run.ts). The store is only read: a missing one is not created.
 */
export async function readStoredRun(db: string, idOrPrefix: string): Promise<ReportDocument> {
  if (db !== ':memory:' && !existsSync(db))
    throw new Error(
      `no runs recorded yet (${db} does not exist): crucible solve, eval, select, calibrate and audit record their runs there; give --db FILE for a store elsewhere`,
    );
  // Loaded here, not with the module: reading a JSON document needs no SQLite.
  const { Store } = await import('../store/index.js');
  let store;
  try {
    store = new Store(db);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new Error(
        `${db} is not a run store (crucible's SQLite database); give --db FILE for the store the run is in`,
      );
    throw error;
  }
  try {
    const found = store.getRun(idOrPrefix);
    if (!found) throw new Error(`no run "${idOrPrefix}" in ${db}; \`crucible runs\` lists them`);
    return storedRunDocument(found.run, found.events);
  } finally {
    store.close();
  }
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
