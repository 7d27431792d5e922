/**
 * The dashboard of `crucible serve` (src/server/dashboard.ts serves it at `/`): the runs of
 * the store, a run's page in the report's own views (../views, through ../registry.js), and a
 * form that judges a pasted program. Pages are hash routes, so the server has one page:
 * `#/` (the runs, with their filters: `#/?status=running&command=eval&q=…`), `#/runs/ID`
 * and `#/check`.
 */
import { html } from 'htm/preact';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import '../views/index.js';
import { logout } from './api.js';
import { CheckPage } from './check.js';
import { focusNextHeading } from './focus.js';
import { RunPage } from './run.js';
import { RunsPage } from './runs.js';

/**
 * @typedef {{ page: 'runs', filters: { status: string, command: string, q: string } }
 *   | { page: 'run', id: string }
 *   | { page: 'check' }} Route
 */

/** @returns {Route} */
function currentRoute() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = hash.split('?');
  const run = /^\/runs\/(.+)$/.exec(path);
  if (run) return { page: 'run', id: decodeURIComponent(run[1] ?? '') };
  if (path === '/check') return { page: 'check' };
  const query = new URLSearchParams(search);
  return {
    page: 'runs',
    filters: { status: query.get('status') ?? '', command: query.get('command') ?? '', q: query.get('q') ?? '' },
  };
}

/** The filters in the address (replaced, not pushed: Back leaves the list, not a keystroke). @param {{ status: string, command: string, q: string }} filters */
function showFilters(filters) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  const search = query.toString();
  history.replaceState(null, '', `#/${search ? `?${search}` : ''}`);
}

const TITLES = { runs: 'Runs', run: 'Run', check: 'Check a program' };

/**
 * Logs out, then opens `/` again: without the session it is the page that asks for the token.
 * A logout that fails (the server is gone) still leaves the page.
 */
async function endSession() {
  await logout().catch(() => undefined);
  location.replace('/');
}

/** @param {{ session: boolean }} props (session: the browser is in by a session cookie, which it may end) */
function App({ session }) {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const onHash = () => {
      focusNextHeading();
      setRoute(currentRoute());
      window.scrollTo(0, 0);
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    document.title = `${route.page === 'run' ? `Run ${route.id}` : TITLES[route.page]} · Crucible dashboard`;
  }, [route]);

  return html`<div class="dash">
    <header class="dash-bar">
      <a class="dash-brand" href="#/">Crucible</a>
      <nav aria-label="Dashboard">
        <a href="#/" aria-current=${route.page === 'runs' ? 'page' : undefined}>Runs</a>
        <a href="#/check" aria-current=${route.page === 'check' ? 'page' : undefined}>Check a program</a>
      </nav>
      ${session && html`<button type="button" data-testid="logout" onClick=${endSession}>Log out</button>`}
    </header>
    <main class="app dash-main">
      ${route.page === 'runs' && html`<${RunsPage} initial=${route.filters} onFilters=${showFilters} />`}
      ${route.page === 'run' && html`<${RunPage} key=${route.id} id=${route.id} />`}
      ${route.page === 'check' && html`<${CheckPage} />`}
    </main>
  </div>`;
}

function start() {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  const session = root.dataset.session !== undefined;
  root.textContent = '';
  render(html`<${App} session=${session} />`, root);
  document.documentElement.dataset.ready = 'true';
}

start();
