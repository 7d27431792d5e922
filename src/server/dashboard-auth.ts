/**
 * How a browser gets past the server's bearer token: a browser cannot send an Authorization
 * header when it opens a page, so the dashboard takes the token once in its address
 * (`/?token=…`, which `crucible serve` prints), answers with an HttpOnly, SameSite=Strict
 * session cookie and sends the browser on to `/` without it. The cookie holds a random id
 * made at that login, known only to this server process (a map of sessions, each with its
 * end): a logout, the session's age (Max-Age, 12 h by default) or a restart ends it, and a
 * cookie copied from a disk or a log stops working then. Nothing in it is derived from the
 * token. Every comparison with the token takes the same time whatever it compares.
 *
 * The session map is hand-written: hono has no session middleware, and the third-party ones
 * (hono-sessions) keep data in an encrypted cookie or an external store, where a session here
 * carries no data, only whether it is still live. The cookie itself is hono/cookie's.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `given` is `secret`, in time that does not depend on where they differ (nor on their lengths). */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(secret));
}

/** How long a session lasts unless told otherwise: a working day. */
export const DEFAULT_SESSION_SECONDS = 12 * 3600;
/** Browsers cap a cookie's Max-Age at 400 days (RFC 6265bis); hono refuses more. */
export const MAX_SESSION_SECONDS = 400 * 24 * 3600;
/** Sessions kept at most: only holders of the token make them, but a loop of logins must not grow the map without end. */
const MAX_SESSIONS = 1000;

export interface SessionOptions {
  /** How long a session lasts, in seconds (the cookie's Max-Age and its end on the server). */
  readonly seconds?: number;
  /** The clock (ms since the epoch); tests move it. */
  readonly now?: () => number;
}

export class DashboardSession {
  /**
   * The live sessions: the SHA-256 of each id (so that looking one up cannot leak, by its
   * timing, anything about an id) to the time it ends. In insertion order, oldest first.
   */
  private readonly sessions = new Map<string, number>();
  private readonly seconds: number;
  private readonly now: () => number;

  constructor(
    private readonly token: string,
    options: SessionOptions = {},
  ) {
    this.seconds = options.seconds ?? DEFAULT_SESSION_SECONDS;
    if (!(Number.isInteger(this.seconds) && this.seconds > 0 && this.seconds <= MAX_SESSION_SECONDS))
      throw new Error(
        `a dashboard session lasts a whole number of seconds from 1 to ${MAX_SESSION_SECONDS} (400 days), not ${this.seconds}`,
      );
    this.now = options.now ?? Date.now;
  }

  /**
   * Cookies are not told apart by port: two servers on one host must not overwrite each
   * other's, so the port is in the name.
   */
  cookieName(c: Context): string {
    const port = new URL(c.req.url).port;
    return `crucible_dashboard${port ? `_${port}` : ''}`;
  }

  /** The key of a session id in the map. */
  private static keyOf(id: string): string {
    return digest(id).toString('base64url');
  }

  /** The request carries the cookie of a live session. */
  hasCookie(c: Context): boolean {
    const id = getCookie(c, this.cookieName(c));
    if (id === undefined) return false;
    const key = DashboardSession.keyOf(id);
    const end = this.sessions.get(key);
    if (end === undefined) return false;
    if (this.now() < end) return true;
    this.sessions.delete(key);
    return false;
  }

  /** The request carries `Authorization: Bearer <token>`. */
  hasBearer(c: Context): boolean {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    return match !== null && sameSecret(match[1], this.token);
  }

  /** `?token=` is the server's token. */
  isToken(given: string): boolean {
    return sameSecret(given, this.token);
  }

  /** A new session, and its cookie on the answer. */
  start(c: Context): void {
    const now = this.now();
    for (const [key, end] of this.sessions) if (end <= now) this.sessions.delete(key);
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(DashboardSession.keyOf(id), now + this.seconds * 1000);
    setCookie(c, this.cookieName(c), id, { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: this.seconds });
  }

  /** Ends the request's session (logout): the server forgets it, and the browser is told to drop the cookie. */
  end(c: Context): void {
    const id = getCookie(c, this.cookieName(c));
    if (id !== undefined) this.sessions.delete(DashboardSession.keyOf(id));
    deleteCookie(c, this.cookieName(c), { httpOnly: true, sameSite: 'Strict', path: '/' });
  }

  /**
   * A request the dashboard's own page made with its cookie (the check form's POST /v1/verify):
   * the cookie, and the browser's word that the request comes from this origin. SameSite keeps
   * the cookie off other sites' requests, but a page on another port of the same host is the
   * same site; Sec-Fetch-Site and Origin tell it apart.
   */
  fromOwnPage(c: Context): boolean {
    return this.hasCookie(c) && sameOrigin(c);
  }
}

/** The browser's word that a request comes from this server's own origin (Sec-Fetch-Site, else Origin). */
export function sameOrigin(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = c.req.header('origin');
  return origin !== undefined && origin === new URL(c.req.url).origin;
}
