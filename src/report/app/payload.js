/**
 * Reads the documents the page carries (src/report/html.ts writes them): gzipped JSON in
 * base64, inflated by the browser's own DecompressionStream — no request, no library.
 */

/** @typedef {import('./types').Payload} Payload */

/**
 * @param {string} base64
 * @returns {Uint8Array<ArrayBuffer>}
 */
function bytesOf(base64) {
  // Uint8Array.fromBase64 where the browser has it; atob everywhere else.
  const from = /** @type {{ fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }} */ (
    /** @type {unknown} */ (Uint8Array)
  ).fromBase64;
  if (from) return from(base64);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * @param {HTMLElement} element the `<script type="application/json">` holding the data
 * @returns {Promise<Payload>}
 */
export async function readPayload(element) {
  const text = (element.textContent ?? '').trim();
  if (element.dataset.encoding !== 'gzip+base64') return JSON.parse(text);
  const stream = new Blob([bytesOf(text)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
}
