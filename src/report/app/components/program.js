/**
 * A program as it was judged, highlighted by highlight.js: its core and only the four languages
 * Crucible judges (48 KB minified; all 190 of its languages would be many times that).
 * highlight.js escapes the source itself and emits only <span class="hljs-…"> around it, so its
 * HTML is safe to set; an unknown or undetectable language is shown as plain text.
 */
import { html } from 'htm/preact';
import hljs from 'highlight.js/lib/core';
import javascript from 'highlight.js/lib/languages/javascript';
import python from 'highlight.js/lib/languages/python';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';

hljs.registerLanguage('python', python);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('sql', sql);

/** Longest program highlighted: past it (a model's runaway reply) the text is shown plain, at once. */
const MAX_HIGHLIGHTED = 200_000;

/** @param {string | undefined} language e.g. "python", "py", "js", "ts", "sql" */
function languageOf(language) {
  const name = (language ?? '').toLowerCase();
  const alias = /** @type {Record<string, string>} */ ({ py: 'python', js: 'javascript', ts: 'typescript' })[name];
  const known = alias ?? name;
  return hljs.getLanguage(known) ? known : undefined;
}

/**
 * @param {string} source
 * @param {string | undefined} language
 * @returns {string | undefined} highlighted HTML, or undefined to show the text plain
 */
export function highlighted(source, language) {
  if (source.length > MAX_HIGHLIGHTED) return undefined;
  const known = languageOf(language);
  if (known) return hljs.highlight(source, { language: known, ignoreIllegals: true }).value;
  const guess = hljs.highlightAuto(source, ['python', 'javascript', 'typescript', 'sql']);
  return guess.relevance >= 5 ? guess.value : undefined;
}

/** @param {{ source: string, language?: string, label?: string }} props */
export function Program({ source, language, label }) {
  const marked = highlighted(source, language);
  return marked === undefined
    ? html`<pre class="code" aria-label=${label}><code>${source}</code></pre>`
    : html`<pre class="code" aria-label=${label}><code class="hljs" dangerouslySetInnerHTML=${{ __html: marked }}></code></pre>`;
}
