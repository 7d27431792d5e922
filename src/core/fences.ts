/**
 * Markdown code fences in a model's reply, found by scanning. The regular expressions this
 * replaces backtracked: a reply of many ``` with no newline took seconds per 40 KB (quadratic)
 * on the event loop of `crucible serve`, where such a reply arrives in a request.
 */
export interface Fence {
  /** What follows the opening ``` on its line (the language tag, and anything after it). */
  readonly info: string;
  readonly code: string;
  /** False for a last fence that is never closed (a reply cut at its token limit). */
  readonly closed: boolean;
}

const MARK = '```';

/** Every fenced block in order; an opening ``` needs a newline after it, as in Markdown. */
export function fences(text: string): Fence[] {
  const out: Fence[] = [];
  let at = text.indexOf(MARK);
  while (at >= 0) {
    const lineEnd = text.indexOf('\n', at + MARK.length);
    if (lineEnd < 0) break;
    const info = text.slice(at + MARK.length, lineEnd);
    const close = text.indexOf(MARK, lineEnd + 1);
    if (close < 0) {
      out.push({ info, code: text.slice(lineEnd + 1), closed: false });
      break;
    }
    out.push({ info, code: text.slice(lineEnd + 1, close), closed: true });
    at = text.indexOf(MARK, close + MARK.length);
  }
  return out;
}
