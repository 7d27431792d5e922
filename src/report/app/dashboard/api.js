/**
 * The dashboard's calls to its server: same origin only (the page's CSP allows nothing else),
 * with the session cookie the browser keeps (src/server/dashboard-auth.ts).
 */

/** @typedef {import('./types').RunList} RunList */
/** @typedef {import('./types').StoredRun} StoredRun */

/** A failed call, with what the server said. */
export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {number} status
   */
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/**
 * @param {Response} response
 * @returns {Promise<any>}
 */
async function json(response) {
  const text = await response.text();
  /** @type {any} */
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const said = body && typeof body.error === 'string' ? body.error : text.slice(0, 300) || response.statusText;
    throw new ApiError(
      response.status === 401 ? `${said} (reload the dashboard from the address crucible serve printed)` : said,
      response.status,
    );
  }
  return body;
}

/**
 * @param {{ status?: string, command?: string, q?: string }} filters
 * @param {AbortSignal} [signal]
 * @returns {Promise<RunList>}
 */
export async function listRuns(filters, signal) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  return json(await fetch(`/dashboard/api/runs?${query}`, { signal, headers: { accept: 'application/json' } }));
}

/**
 * @param {string} id
 * @param {AbortSignal} [signal]
 * @returns {Promise<StoredRun>}
 */
export async function getRun(id, signal) {
  return json(await fetch(`/dashboard/api/runs/${encodeURIComponent(id)}`, { signal }));
}

/** The live stream of a running run (events: run, events, done, gone). @param {string} id @param {number} after */
export const liveRun = (id, after) =>
  new EventSource(`/dashboard/api/runs/${encodeURIComponent(id)}/live?after=${after}`);

/**
 * POST /v1/verify, as any client calls it.
 * @param {unknown} body
 * @param {AbortSignal} [signal]
 * @returns {Promise<any>}
 */
export async function verify(body, signal) {
  return json(
    await fetch('/v1/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal,
    }),
  );
}

/** Ends the browser's session on the server (the cookie is dropped too). */
export async function logout() {
  return json(await fetch('/dashboard/logout', { method: 'POST', headers: { accept: 'application/json' } }));
}
