/** JSONL files, plain or gzip-compressed (recognised by content, not by name). */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { splitJsonLine, type SplitLine } from '../core/raw-json.js';

const gunzipAsync = promisify(gunzip);

export interface JsonlLine {
  /** 1-based line number in the (decompressed) file. */
  readonly lineNo: number;
  readonly text: string;
}

/** A parsed line: its number, its raw fields, its parsed fields. */
export interface JsonlRecord extends SplitLine {
  readonly lineNo: number;
}

/** Non-blank lines of a .jsonl or .jsonl.gz file. */
export async function readJsonlLines(path: string): Promise<JsonlLine[]> {
  let bytes = await readFile(path);
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = await gunzipAsync(bytes);
    } catch (error) {
      throw new Error(`${path}: cannot decompress gzip data: ${messageOf(error)}`);
    }
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines: JsonlLine[] = [];
  text.split('\n').forEach((line, i) => {
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (trimmed.trim() !== '') lines.push({ lineNo: i + 1, text: trimmed });
  });
  return lines;
}

/** Parses one line, keeping `rawKeys` as source text; errors name the file and line. */
export function parseJsonlLine(path: string, line: JsonlLine, rawKeys: Iterable<string> = []): JsonlRecord {
  try {
    return { lineNo: line.lineNo, ...splitJsonLine(line.text, rawKeys) };
  } catch (error) {
    throw new Error(`${path}:${line.lineNo}: malformed JSON line: ${messageOf(error)}`);
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
