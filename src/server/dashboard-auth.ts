/**
 * How a browser gets past the server's bearer token: a browser cannot send an Authorization
 * header when it opens a page, so the dashboard takes the token once in its address
 * (`/?token=…`, which `crucible serve` prints), answers with an HttpOnly, SameSite=Strict
 * session cookie and sends the browser on to `/` without it. The cookie holds an HMAC of the
 * token, not the token. Every comparison takes the same time whatever it compares.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `given` is `secret`, in time that does not depend on where they differ (nor on their lengths). */
export function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(secret));
}

export class DashboardSession {
  /** The cookie's value: what proves the browser was given the token. */
  private readonly value: string;

  constructor(private readonly token: string) {
    this.value = createHmac('sha256', token).update('crucible dashboard session 1').digest('base64url');
  }

  /**
   * Cookies are not told apart by port: two servers on one host must not overwrite each
   * other's, so the port is in the name.
   */
  cookieName(c: Context): string {
    const port = new URL(c.req.url).port;
    return `crucible_dashboard${port ? `_${port}` : ''}`;
  }

  /** The request carries the session cookie. */
  hasCookie(c: Context): boolean {
    return sameSecret(getCookie(c, this.cookieName(c)), this.value);
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

  /** The session cookie on the answer (for as long as the browser runs). */
  start(c: Context): void {
    setCookie(c, this.cookieName(c), this.value, { httpOnly: true, sameSite: 'Strict', path: '/' });
  }

  /**
   * A request the dashboard's own page made with its cookie (the check form's POST /v1/verify):
   * the cookie, and the browser's word that the request comes from this origin. SameSite keeps
   * the cookie off other sites' requests, but a page on another port of the same host is the
   * same site; Sec-Fetch-Site and Origin tell it apart.
   */
  fromOwnPage(c: Context): boolean {
    if (!this.hasCookie(c)) return false;
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined) return site === 'same-origin';
    const origin = c.req.header('origin');
    return origin !== undefined && origin === new URL(c.req.url).origin;
  }
}
