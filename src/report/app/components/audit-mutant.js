/**
 * A surviving mutant as a patch against its reference: the reference's lines (−) and the
 * mutant's (+), with the characters the mutation changed marked (jsdiff's character diff,
 * as components/diff.js marks expected against actual).
 */
import { html } from 'htm/preact';
import { diffChars } from 'diff';
import { Program } from './program.js';

/** @typedef {import('../types-select').Survivor} Survivor */

/**
 * The two sides of a survivor's diff: after its header line ("line N" between double at-signs), the `-` lines and the `+` lines.
 * @param {string} diff
 */
export function diffSides(diff) {
  const lines = diff.split('\n');
  const body = lines[0]?.startsWith('@@') ? lines.slice(1) : lines;
  return {
    reference: body.filter((l) => l.startsWith('-')).map((l) => l.slice(1)),
    mutant: body.filter((l) => l.startsWith('+')).map((l) => l.slice(1)),
  };
}

/**
 * Segments of one side, cut into lines (a mark may not cross a line break in the display).
 * @param {{ value: string, marked: boolean }[]} segments
 */
function intoLines(segments) {
  /** @type {{ value: string, marked: boolean }[][]} */
  const lines = [[]];
  for (const s of segments)
    s.value.split('\n').forEach((piece, i) => {
      if (i > 0) lines.push([]);
      if (piece)
        /** @type {{ value: string, marked: boolean }[]} */ (lines[lines.length - 1]).push({
          value: piece,
          marked: s.marked,
        });
    });
  return lines;
}

/** @param {{ survivor: Survivor, language?: string }} props */
export function MutantDiff({ survivor, language }) {
  const { reference, mutant } = diffSides(survivor.diff);
  const before = reference.join('\n');
  const after = mutant.join('\n');
  const parts = diffChars(before, after);
  const referenceLines = intoLines(parts.filter((p) => !p.added).map((p) => ({ value: p.value, marked: !!p.removed })));
  const mutantLines = intoLines(parts.filter((p) => !p.removed).map((p) => ({ value: p.value, marked: !!p.added })));
  return html`<div class="mutant" data-operator=${survivor.operator} data-line=${survivor.line}>
    <div class="mutant-head">
      <span class="operator">${survivor.operator}</span>
      <span class="muted">line ${survivor.line}</span>
    </div>
    <pre class="mutant-diff">${referenceLines.map(
      (line) =>
        html`<span class="md-line md-ref" data-side="reference"
          ><span class="md-mark" aria-hidden="true">−</span><span class="sr-only">reference: </span>${line.map((s) =>
            s.marked ? html`<mark class="d-exp">${s.value}</mark>` : s.value,
          )}
</span>`,
    )}${mutantLines.map(
      (line) =>
        html`<span class="md-line md-mut" data-side="mutant"
          ><span class="md-mark" aria-hidden="true">+</span><span class="sr-only">mutant: </span>${line.map((s) =>
            s.marked ? html`<mark class="d-act">${s.value}</mark>` : s.value,
          )}
</span>`,
    )}</pre>
    ${
      typeof survivor.program === 'string' &&
      html`<details class="mutant-program">
        <summary>The whole mutant</summary>
        <${Program} source=${survivor.program} language=${language} label="the mutant" />
      </details>`
    }
  </div>`;
}
