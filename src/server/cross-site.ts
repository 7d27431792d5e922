/**
 * What keeps a server without a token (it listens on loopback only) from obeying the web
 * pages its user opens. Its clients are scripts, RL trainers (verl's SandboxFusion client,
 * python requests) and curl, which send no Origin and no Sec-Fetch-Site, and the dashboard's
 * own page, which is same-origin. Refused with a 403 that says what to do:
 * - a Host that is not one of the server's names: a page whose name was pointed at 127.0.0.1
 *   after it loaded (DNS rebinding) is same-origin to the browser, so only the Host header
 *   tells it apart. Allowed: `localhost`, loopback IP literals (they cannot be rebound), the
 *   `--host` name and `--allowed-host` names, on any port (an SSH tunnel forwards another
 *   port; the port adds nothing against rebinding, where the name is the attacker's);
 * - a request that changes something (not GET/HEAD/OPTIONS) from another site's page, or from
 *   another origin of this host (another port is same-site, not same-origin): by
 *   Sec-Fetch-Site, and by Origin for browsers that do not send Sec-Fetch-Site.
 * With a token none of this applies: a page cannot send the bearer header without a CORS
 * preflight (which this server never grants) and the dashboard's cookie is SameSite=Strict
 * and honoured only from the dashboard's own origin (dashboard-auth.ts).
 *
 * Hand-written rather than hono/csrf: that middleware looks only at form-like Content-Types
 * (a cross-site request that says application/json, or a Host it was never meant to answer,
 * passes it) and answers a bare "Forbidden"; hono has no Host allow-list.
 */
import type { MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { isLoopbackAddress } from './loopback.js';

/** The methods that read: a cross-site page may link to the dashboard, but not drive the server. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A Host header's name (lowercased, an IPv6 literal without its brackets), or undefined when it is not a plain host[:port]. */
export function hostNameOf(host: string): string | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9._-]+))(?::\d{1,5})?$/i.exec(host);
  return match ? (match[1] ?? match[2])!.toLowerCase() : undefined;
}

/** Names that point at this machine whatever DNS says (an IP literal cannot be rebound; browsers resolve localhost themselves). */
const isLoopbackName = (name: string) => name === 'localhost' || isLoopbackAddress(name);

const forbidden = (message: string): never => {
  throw new HTTPException(403, { message });
};

const WHAT_TO_DO =
  'Call it from a script, a trainer or curl (they send neither Origin nor Sec-Fetch-Site), or from the dashboard at this server’s own address.';

/**
 * The guard of a server without a token. `allowedHosts`: names it answers to besides
 * localhost and loopback addresses (its `--host` and `--allowed-host` values).
 */
export function crossSiteGuard(allowedHosts: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedHosts.map((h) => hostNameOf(h) ?? h.toLowerCase()));
  const names = ['127.0.0.1', 'localhost', '[::1]', ...[...allowed].filter((n) => !isLoopbackName(n))];
  return async (c, next) => {
    const url = new URL(c.req.url);
    // The Host header as sent, and the address's host (which node builds from it, or from an absolute-form request line).
    const header = c.req.header('host');
    for (const host of header === undefined ? [url.host] : [header, url.host]) {
      const name = hostNameOf(host);
      if (name === undefined || !(isLoopbackName(name) || allowed.has(name)))
        forbidden(
          `this server has no token and answers only to its own names (${names.join(', ')}), not to Host ${host.slice(0, 200)}: ` +
            'a page whose name was pointed at this machine (DNS rebinding) must not reach it. ' +
            `Open it at http://127.0.0.1${url.port ? `:${url.port}` : ''}/, start crucible serve with --allowed-host ${name ?? '<name>'} ` +
            'if that name is yours and points here, or with --token.',
        );
    }
    if (READS.has(c.req.method)) return next();
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      forbidden(
        `refused a ${c.req.method} from another site's page (Sec-Fetch-Site: ${site.slice(0, 40)}): a web page may not drive a server without a token. ${WHAT_TO_DO}`,
      );
    const origin = c.req.header('origin');
    if (origin !== undefined && !sameHost(origin, header ?? url.host))
      forbidden(
        `refused a ${c.req.method} from the page at ${origin.slice(0, 200)} (its Origin is not this server's, ${url.protocol}//${header ?? url.host}): a web page may not drive a server without a token. ${WHAT_TO_DO}`,
      );
    return next();
  };
}

/**
 * Whether an Origin is this server's: its host and port are the Host's. The scheme is not
 * compared: a TLS proxy in front makes the page https while the server sees http.
 */
function sameHost(origin: string, host: string): boolean {
  try {
    const parsed = new URL(origin);
    return parsed.host !== '' && parsed.host === new URL(`http://${host}`).host;
  } catch {
    return false; // `null` (a sandboxed frame, a file: page) and anything unreadable
  }
}
