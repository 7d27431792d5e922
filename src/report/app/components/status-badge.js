/** A status as a small badge: its glyph and its name, in its colour. */
import { html } from 'htm/preact';
import { statusClass, statusInfo } from '../status.js';

/** @param {{ status: string | null | undefined }} props */
export function StatusBadge({ status }) {
  if (!status) return html`<span class="badge s-other">—</span>`;
  const info = statusInfo(status);
  return html`<span class="badge ${statusClass(status)}" title=${info.description}
    ><span class="glyph" aria-hidden="true">${info.glyph}</span> ${info.label}</span
  >`;
}
