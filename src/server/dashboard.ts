/**
 * The dashboard of `crucible serve`, at `/`: the runs of the run store (newest first, with
 * filters), a run's page in the report's own views, live while it runs (an SSE stream that
 * polls the store: the store is SQLite in WAL mode, so this process reads what a `crucible
 * eval` elsewhere writes), and a form that judges a pasted program through /v1/verify. The
 * page is the report's app built from a second entry (src/report/app/dashboard/main.js);
 * its data comes from the JSON routes under /dashboard/api. Behind the server's token like
 * the API (dashboard-auth.ts says how a browser gets in); every page forbids any request to
 * anywhere but this server (CSP).
 */
import { existsSync } from 'node:fs';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import { RUN_STATUSES, type RunStatus } from '../core/trace.js';
import { appScript } from '../report/bundle.js';
import { appStyles } from '../report/html.js';
import { storedRunDocument } from '../report/stored-run.js';
import { commandLabel, describeResult } from '../store/command-runs.js';
import { Store, UnknownRunError, type Run } from '../store/store.js';
import { DashboardSession, sameOrigin } from './dashboard-auth.js';

export interface DashboardOptions {
  /** The server's bearer token; none: the dashboard is open (the server listens on loopback only). */
  readonly token?: string | undefined;
  /** The run store's file (`--db`); none: no runs to list (the check form still works). */
  readonly store?: string | undefined;
  /** How often a run's live stream reads the store (ms). */
  readonly pollMs?: number;
  /** How long a browser's session lasts, in seconds (`--session-hours`; default 12 h). */
  readonly sessionSeconds?: number;
  /** The sessions' clock (ms since the epoch); tests move it. */
  readonly now?: () => number;
}

export interface Dashboard {
  /** The pages and JSON routes, mounted at the app's root. */
  readonly routes: Hono;
  /** For the dashboard's paths: the session cookie, the bearer header, or the token once in `/?token=`. */
  readonly guard: MiddlewareHandler;
  /** A request of the dashboard's page with its session (the check form's POST /v1/verify). */
  fromOwnPage(c: Context): boolean;
  /** Builds the page's script now, so that the first visit does not wait for it. */
  warm(): void;
  close(): void;
}

/** The paths the dashboard answers (its guard, not the API's, decides who may read them). */
export const isDashboardPath = (path: string) => path === '/' || path.startsWith('/dashboard/');

/** The page's own script and styles: the app's code, no data; every page, even the refusal, loads them. */
const ASSETS = new Set(['/dashboard/app.js', '/dashboard/styles.css']);
/** Ends the browser's session; it needs none to be asked (an expired one is ended already). */
const LOGOUT = '/dashboard/logout';

/** Only this server: no CDN, no font, no beacon, not even by mistake. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const LIVE_POLL_MS = 250;
/** A comment on an idle stream, so that nothing between closes it. */
const KEEPALIVE_MS = 15_000;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/styles.css">
</head>
<body>
${body}
</body>
</html>
`;
}

/** The page; `data-session` when the browser is in by a session, so that the page offers to log out. */
const appPage = (session: boolean) =>
  page(
    'Crucible dashboard',
    `<div id="app"${session ? ' data-session' : ''}><p class="loading">Loading the dashboard…</p><noscript>The dashboard needs JavaScript to show the runs.</noscript></div>
<script src="/dashboard/app.js" defer></script>`,
  );
const APP_PAGE = appPage(false);
const SESSION_PAGE = appPage(true);

function refusalPage(origin: string, wrongToken: boolean): string {
  return page(
    'Crucible dashboard: token needed',
    `<main class="dash-refusal">
<h1>Crucible dashboard</h1>
<p>${wrongToken ? 'That is not this server’s token.' : 'This server asks for its token.'}</p>
<p>Open the address <code>crucible serve</code> printed when it started:</p>
<pre>${escapeHtml(origin)}/?token=&lt;the token given to crucible serve&gt;</pre>
<p class="muted">The token is asked for once: the browser keeps a session cookie for this server, and the address drops the token. API clients send <code>Authorization: Bearer &lt;token&gt;</code> instead.</p>
</main>`,
  );
}

/** A run as the list shows it: no document, no settings; its figures in a line, and why it failed. */
export function listedRun(run: Run) {
  const { summary, meta: _meta, budget: _budget, ...rest } = run;
  const reason = summary?.reason;
  return {
    ...rest,
    command: commandLabel(run),
    result: describeResult(run),
    ...(typeof reason === 'string' && run.status !== 'running' ? { reason } : {}),
  };
}

export type ListedRun = ReturnType<typeof listedRun>;

export function createDashboard(options: DashboardOptions = {}): Dashboard {
  const session = options.token
    ? new DashboardSession(options.token, {
        ...(options.sessionSeconds !== undefined ? { seconds: options.sessionSeconds } : {}),
        ...(options.now ? { now: options.now } : {}),
      })
    : undefined;
  const pollMs = options.pollMs ?? LIVE_POLL_MS;
  let store: Store | undefined;
  let closed = false;
  /** The store, once its file exists (the dashboard does not create one). */
  const openStore = (): Store | undefined => {
    if (store || closed || options.store === undefined) return store;
    if (options.store !== ':memory:' && !existsSync(options.store)) return undefined;
    store = new Store(options.store);
    return store;
  };

  const guard: MiddlewareHandler = async (c, next) => {
    const path = c.req.path;
    if (ASSETS.has(path) || path === LOGOUT) return next();
    const given = path === '/' ? c.req.query('token') : undefined;
    if (given !== undefined) {
      // The token leaves the address at once: the page's own address (history, a screenshot) never shows it.
      if (session && !session.isToken(given)) return refuse(c, true);
      session?.start(c);
      c.header('Cache-Control', 'no-store');
      return c.redirect('/', 303);
    }
    if (!session || session.hasCookie(c) || session.hasBearer(c)) return next();
    return refuse(c, false);
  };

  const refuse = (c: Context, wrongToken: boolean) => {
    c.header('Cache-Control', 'no-store');
    if (c.req.path.startsWith('/dashboard/api/'))
      return c.json(
        {
          error: wrongToken
            ? 'that is not the server’s token'
            : 'open the dashboard at /?token=<token> first, or send Authorization: Bearer <token>',
        },
        401,
      );
    c.header('Content-Security-Policy', CSP);
    return c.html(refusalPage(new URL(c.req.url).origin, wrongToken), 401);
  };

  const routes = new Hono();
  routes.use('*', async (c, next) => {
    await next();
    c.header('Content-Security-Policy', CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
  });

  routes.get('/', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.html(session?.hasCookie(c) ? SESSION_PAGE : APP_PAGE);
  });
  routes.post(LOGOUT, (c) => {
    c.header('Cache-Control', 'no-store');
    // Only the page itself logs out: another page of this host (another port) may not end its session.
    if (!sameOrigin(c))
      return c.json({ error: 'log out from the dashboard’s own page (this request came from another page)' }, 403);
    const ended = session?.hasCookie(c) ?? false;
    session?.end(c);
    return c.json({ ended });
  });
  routes.get('/dashboard/app.js', async (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.body(await appScript('dashboard'), 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  routes.get('/dashboard/styles.css', async (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.body(await appStyles(), 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  routes.get('/dashboard/api/runs', (c) => {
    const status = c.req.query('status') || undefined;
    if (status !== undefined && !(RUN_STATUSES as readonly string[]).includes(status))
      return c.json({ error: `status must be one of ${RUN_STATUSES.join(', ')}` }, 400);
    const limit = Number(c.req.query('limit') ?? 200);
    if (!Number.isInteger(limit) || limit < 1 || limit > 5000)
      return c.json({ error: 'limit must be a whole number from 1 to 5000' }, 400);
    const command = (c.req.query('command') || undefined)?.slice(0, 100);
    const text = (c.req.query('q') || undefined)?.slice(0, 500);
    const runs = openStore()?.listRuns({
      limit,
      ...(status ? { status: status as RunStatus } : {}),
      ...(command ? { command } : {}),
      ...(text ? { text } : {}),
    });
    c.header('Cache-Control', 'no-store');
    return c.json({
      store: { path: options.store ?? null, exists: runs !== undefined },
      runs: (runs ?? []).map(listedRun),
    });
  });

  /** `read` of the store for the run the path names (an unambiguous start of its id); a 404 that says why, else. */
  const withRun = <T>(c: Context, read: (store: Store, id: string) => T | undefined): T | Response => {
    const id = c.req.param('id') ?? '';
    try {
      const s = openStore();
      const found = s ? read(s, id) : undefined;
      if (found !== undefined) return found;
    } catch (error) {
      if (error instanceof UnknownRunError) return c.json({ error: error.message }, 404);
      throw error;
    }
    return c.json({ error: `no run ${id} in the store` }, 404);
  };

  routes.get('/dashboard/api/runs/:id', (c) => {
    const found = withRun(c, (s, id) => s.getRun(id));
    if (found instanceof Response) return found;
    c.header('Cache-Control', 'no-store');
    return c.json({ run: listedRun(found.run), document: storedRunDocument(found.run, found.events) });
  });

  // The run as it changes: `run` when its status, progress or event count does, `events` with
  // the events after `?after=` (the last seq the page has), and `done` once it has finished.
  routes.get('/dashboard/api/runs/:id/live', (c) => {
    const first = withRun(c, (s, id) => s.peekRun(id));
    if (first instanceof Response) return first;
    const after = Number(c.req.query('after') ?? -1);
    return streamSSE(c, async (stream) => {
      let seen = Number.isInteger(after) ? after : -1;
      let shown = '';
      let quiet = performance.now();
      const send = async (event: string, data: unknown) => {
        await stream.writeSSE({ event, data: JSON.stringify(data) });
        quiet = performance.now();
      };
      while (!stream.aborted && !stream.closed && !closed) {
        const run = store?.peekRun(first.id);
        if (!run) {
          await send('gone', { error: `run ${first.id} is no longer in the store` });
          break;
        }
        const state = JSON.stringify([run.status, run.progress, run.events, run.finishedAt]);
        if (state !== shown) {
          shown = state;
          await send('run', listedRun(run));
        }
        if (run.events - 1 > seen) {
          const events = store!.eventsAfter(run.id, seen);
          if (events.length > 0) {
            seen = events.at(-1)!.seq;
            await send('events', events);
          }
        }
        if (run.status !== 'running') {
          await send('done', { status: run.status });
          break;
        }
        if (performance.now() - quiet > KEEPALIVE_MS) {
          await stream.write(': still running\n\n');
          quiet = performance.now();
        }
        await stream.sleep(pollMs);
      }
    });
  });

  routes.all('/dashboard/*', (c) => c.json({ error: `no route ${c.req.method} ${c.req.path}` }, 404));

  return {
    routes,
    guard,
    fromOwnPage: (c) => session?.fromOwnPage(c) ?? false,
    warm: () => void appScript('dashboard').catch(() => {}),
    close: () => {
      closed = true;
      store?.close();
      store = undefined;
    },
  };
}
