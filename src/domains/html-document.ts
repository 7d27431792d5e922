/**
 * The HTML document in a model's reply, for the packs whose artifact is one (games, docs): the
 * longest fenced block that holds HTML, else the reply itself when it is HTML. Fences are found
 * by core/fences.ts's scan: the regular expression this replaces took seconds on a reply of many
 * backticks.
 */
import { fences } from '../core/fences.js';

const looksLikeHtml = (text: string) => /<(!doctype|html|body|head|script|div|canvas|main|button|style)\b/i.test(text);

export function extractHtmlDocument(reply: string): string | undefined {
  const blocks = fences(reply)
    .filter((f) => f.closed)
    .map((f) => f.code.trim())
    .filter(looksLikeHtml);
  if (blocks.length) return blocks.reduce((a, b) => (b.length > a.length ? b : a));
  const whole = reply.trim();
  return looksLikeHtml(whole) ? whole : undefined;
}
