/**
 * The browser that judges artifacts a model wrote as HTML (games, documents): one chromium per
 * runtime, launched on first use and again if it dies, and a fresh context per artifact, closed
 * after it. The browser runs in the project's sandbox (confinement.ts): no network namespace at
 * all, a seccomp filter, and a memory cgroup over all its processes. The artifact is served at
 * one made-up origin from memory; every other request — subresources, fetches, WebSockets,
 * WebRTC, a navigation away, a popup — is refused and reported, and the proxy goes nowhere —
 * except the files the caller serves beside the artifact (`assets`: a document's images, fonts,
 * style sheets). Timers and `requestAnimationFrame` run on a virtual clock that starts at 0 and
 * moves only when the judge advances it, so a plan plays the same way on a busy machine. Each
 * step has a time limit (a page that loops forever misses it), the renderer's heap and the
 * browser's memory are capped (a page that allocates without end crashes, and is said to), and
 * page errors and console errors are captured.
 *
 * What the judge reads of a page it reads in a world of its own (judge-world.ts), never
 * through the page's own JavaScript: a session offers the page to act on and `inspect` to read.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import type { SandboxMode } from '../runtimes/sandbox.js';
import { CHROMIUM, launchChromium } from './chromium.js';
import { confineBrowser, type Confinement } from './confinement.js';
import { inPage } from './in-page.js';
import { JudgeWorld } from './judge-world.js';

/** Where an artifact is served: a name that resolves nowhere, so nothing else can be at it. */
export const ARTIFACT_ORIGIN = 'http://artifact.invalid';
export const ARTIFACT_URL = `${ARTIFACT_ORIGIN}/`;

export interface BrowserLimits {
  /** Most time a step may take (a load, a click, an advance of the clock), ms. */
  readonly stepMs: number;
  /** Most time all the steps of one artifact may take, ms. */
  readonly artifactMs: number;
  /** The renderer's JavaScript heap, MB (V8's old space): past it the page crashes. */
  readonly heapMb: number;
  /**
   * All the browser's processes together, MB (its memory cgroup, where one can be made): what
   * the heap limit does not count — ArrayBuffers, WebAssembly memory, images — ends here, the
   * renderer killed and the artifact's status `memory`.
   */
  readonly memoryMb: number;
}

export interface BrowserRuntimeOptions extends Partial<BrowserLimits> {
  /** `bwrap` (the default): the browser in the sandbox; `none`: as it is, only for artifacts you trust. */
  readonly sandbox?: SandboxMode | undefined;
}

/** The instant every load starts at: 2026-01-01T00:00:00Z. */
export const CLOCK_START = Date.UTC(2026, 0, 1);

export const DEFAULT_BROWSER_LIMITS: BrowserLimits = {
  stepMs: 5_000,
  artifactMs: 30_000,
  heapMb: 256,
  memoryMb: 2_048,
};

/**
 * Files served beside the artifact, by their path under the origin (`images/logo.png` is
 * `http://artifact.invalid/images/logo.png`). The same shape as the docs domain's `Assets`,
 * defined here so that the browser knows no domain.
 */
export type ArtifactAssets = ReadonlyMap<string, { readonly contentType: string; readonly body: Uint8Array }>;

export interface JudgeOptions {
  /** Served when the page asks for them (not misconduct); every other request is still refused. */
  readonly assets?: ArtifactAssets | undefined;
  /** Whether the page's scripts run (default true: a game is its script; a document needs none). */
  readonly scripts?: boolean | undefined;
}

/** What a page did that an artifact must not: each one a reason the artifact failed. */
export interface Misconduct {
  readonly kind: 'network' | 'popup' | 'navigation' | 'download' | 'dialog';
  readonly detail: string;
}

/**
 * How a session ended early, if it did: the artifact's status, not an exception. `no-verdict`:
 * the browser died under the artifact twice, not for memory (the judge failed, not the page).
 */
export type Abort = { readonly status: 'timeout' | 'memory' | 'no-verdict'; readonly message: string };

/**
 * What a judge may do to the page itself: act on it as a user would, change the medium it is
 * shown on, take its picture. Never read it: the page's own functions answer there (`inspect`).
 */
export type PageActions = Pick<Page, 'keyboard' | 'mouse' | 'screenshot' | 'pdf' | 'emulateMedia' | 'setViewportSize'>;

/** An element to act on: the first that matches a selector, found when the action runs. */
export type ElementActions = Pick<Locator, 'click' | 'pressSequentially' | 'press'>;

/** One artifact's time in the browser: its page, and what it did there. */
export interface BrowserSession {
  readonly page: PageActions;
  /** The first element matching `selector`, to act on. */
  element(selector: string): ElementActions;
  /**
   * Reads the page in the judge's own world (judge-world.ts), under the step limit: `fn`
   * (self-contained, in-page.ts) applied to `arg`, or an expression; its value as JSON.
   */
  inspect<A, R>(fn: (arg: A) => R, arg: A): Promise<Awaited<R>>;
  inspect<R>(expression: string): Promise<R>;
  /** Uncaught exceptions, in order. */
  readonly pageErrors: string[];
  readonly consoleErrors: string[];
  readonly misconduct: Misconduct[];
  /** Loads the artifact afresh in a new context, the clock at 0 (each case of a plan starts so). */
  load(): Promise<void>;
  /** Advances the virtual clock (timers and animation frames due in the window run). */
  advance(ms: number): Promise<void>;
  /** Runs `work` under the step limit; a page that loops, or crashed, turns it into an abort. */
  step<T>(work: () => Promise<T>): Promise<T>;
}

/** Thrown inside a session when a step runs out of time or the page crashes; `judge` returns it as data. */
class SessionAbort extends Error {
  constructor(readonly abort: Abort) {
    super(abort.message);
  }
}

const HEAP_FLAG = (mb: number) => `--js-flags=--max-old-space-size=${mb}`;
const OFFLINE_FLAGS = [
  // A proxy that goes nowhere, for loopback too: what the routes do not catch fails.
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  // WebRTC's UDP goes around proxies: none that is not proxied (the sandbox has no network either).
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** One launched browser and the artifacts in it now; a browser a page hung is retired. */
interface Launched {
  readonly browser: Promise<Browser>;
  /** Its sandbox (none with `sandbox: 'none'`), known once it is written. */
  readonly confinement: Promise<Confinement | undefined>;
  active: number;
  retired: boolean;
}

export class BrowserRuntime {
  readonly limits: BrowserLimits;
  private readonly sandbox: SandboxMode;
  private current: Launched | undefined;
  private readonly all = new Set<Launched>();
  private closed = false;

  constructor(options: BrowserRuntimeOptions = {}) {
    const { sandbox = 'bwrap', ...limits } = options;
    this.sandbox = sandbox;
    this.limits = {
      ...DEFAULT_BROWSER_LIMITS,
      ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    };
  }

  /** What judges, for a document's settings: the browser and its limits. */
  get settings(): object {
    return { browser: CHROMIUM, ...this.limits };
  }

  /** The browser's version (it is launched if it is not running). */
  async version(): Promise<string> {
    return (await this.launch().browser).version();
  }

  private launch(): Launched {
    if (this.closed) throw new Error('the browser runtime is closed');
    if (this.current && !this.current.retired) return this.current;
    const confinement =
      this.sandbox === 'bwrap'
        ? confineBrowser(CHROMIUM, { memoryMb: this.limits.memoryMb })
        : Promise.resolve(undefined);
    const launched: Launched = {
      confinement,
      browser: confinement.then((c) =>
        launchChromium({
          args: [...OFFLINE_FLAGS, HEAP_FLAG(this.limits.heapMb)],
          ...(c ? { executablePath: c.executablePath } : {}),
        }),
      ),
      active: 0,
      retired: false,
    };
    // A browser that died, or failed to start, is launched again for the next artifact.
    launched.browser.then(
      (browser) => browser.on('disconnected', () => this.retire(launched)),
      () => this.retire(launched),
    );
    this.current = launched;
    this.all.add(launched);
    return launched;
  }

  /**
   * No new artifact goes to this browser; it is closed once the artifacts in it are done. A
   * renderer stuck in a loop does not answer when its context is closed, and would spin on:
   * closing the whole browser kills it.
   */
  private retire(launched: Launched): void {
    launched.retired = true;
    if (this.current === launched) this.current = undefined;
    if (launched.active === 0) {
      this.all.delete(launched);
      void shutDown(launched);
    }
  }

  /**
   * Opens `html` and runs `work` on it; every `load()` is a fresh context. The result is
   * `work`'s, or the abort that ended it (time, memory); the contexts are closed either way.
   */
  async judge<T>(
    html: string,
    work: (session: BrowserSession) => Promise<T>,
    options: JudgeOptions = {},
  ): Promise<{ value: T } | { abort: Abort }> {
    const first = await this.judgeOnce(html, work, options);
    if (!('died' in first)) return first;
    // The browser died under the artifact, not for memory: it is judged again, from the start,
    // in a fresh browser; a second death is the judge's failure, not a verdict on the page.
    const second = await this.judgeOnce(html, work, options);
    if (!('died' in second)) return second;
    return {
      abort: {
        status: 'no-verdict',
        message: `the browser died twice while judging this artifact, not for memory (${clip(second.died)})`,
      },
    };
  }

  private async judgeOnce<T>(
    html: string,
    work: (session: BrowserSession) => Promise<T>,
    options: JudgeOptions,
  ): Promise<{ value: T } | { abort: Abort } | { died: string }> {
    const launched = this.launch();
    launched.active++;
    let browser: Browser;
    let confinement: Confinement | undefined;
    try {
      [browser, confinement] = await Promise.all([launched.browser, launched.confinement]);
    } catch (error) {
      launched.active--;
      throw error;
    }
    const scripts = options.scripts ?? true;
    const killsBefore = (await confinement?.oomKills()) ?? 0;
    const deadline = performance.now() + this.limits.artifactMs;
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    let world: JudgeWorld | undefined;
    let crashed = false;
    /** A step ran out of time: the renderer may spin on, so the browser is retired after the artifact. */
    let hung = false;
    const misconduct: Misconduct[] = [];
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    /** The memory abort, saying which limit the page passed: the browser's (a kill in its cgroup) or the heap's. */
    const memoryAbort = async (): Promise<SessionAbort> => {
      const killed = ((await confinement?.oomKills()) ?? 0) > killsBefore;
      return new SessionAbort({
        status: 'memory',
        message: killed
          ? `the page was killed for its memory (the browser's processes may use ${this.limits.memoryMb} MB together)`
          : crashMessage(this.limits.heapMb),
      });
    };
    // A renderer stuck in a loop does not answer: its context is dropped without waiting on it.
    const drop = async () => {
      const old = context;
      context = undefined;
      world = undefined;
      if (old) await Promise.race([old.close().catch(() => undefined), sleep(2_000)]);
    };
    const step = async <T>(work: () => Promise<T>): Promise<T> => {
      const left = deadline - performance.now();
      if (left <= 0)
        throw new SessionAbort({
          status: 'timeout',
          message: `the artifact's steps took more than ${this.limits.artifactMs} ms`,
        });
      const limit = Math.min(this.limits.stepMs, left);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          hung = true;
          reject(
            new SessionAbort({
              status: 'timeout',
              message: `a step took more than ${limit} ms (the page does not answer: a loop that never ends?)`,
            }),
          );
        }, limit);
      });
      try {
        return await Promise.race([work(), late]);
      } catch (error) {
        // A page near its heap limit collects garbage for a while before it crashes.
        if (!crashed && error instanceof SessionAbort) await sleep(CRASH_GRACE_MS);
        if (crashed) throw await memoryAbort();
        throw error;
      } finally {
        clearTimeout(timer);
      }
    };
    const opened = () => {
      if (!page) throw new Error('load() the artifact first');
      return page;
    };
    const load = async () => {
      await drop();
      crashed = false;
      const fresh = await browser.newContext({
        serviceWorkers: 'block',
        acceptDownloads: false,
        javaScriptEnabled: scripts,
      });
      context = fresh;
      await this.confine(fresh, html, misconduct, options.assets);
      // Said in every frame before the page's scripts run (the sandbox has no network anyway).
      const webrtc = `crucible:webrtc:${randomUUID()}`;
      if (scripts) await fresh.addInitScript({ content: inPage(watchPeerConnections, webrtc) });
      const fresher = await fresh.newPage();
      page = fresher;
      fresh.on('page', (popup) => {
        misconduct.push({
          kind: 'popup',
          detail: `opened a window${popup.url() === 'about:blank' ? '' : ` at ${clip(popup.url())}`}`,
        });
        void popup.close().catch(() => undefined);
      });
      fresher.on('pageerror', (error) =>
        pageErrors.push(clip(error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message)),
      );
      fresher.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(clip(message.text()));
        else if (message.type() === 'debug' && message.text() === webrtc)
          misconduct.push({ kind: 'network', detail: 'opened a WebRTC connection (RTCPeerConnection)' });
      });
      fresher.on('dialog', (dialog) => {
        misconduct.push({ kind: 'dialog', detail: `opened a ${dialog.type()} dialog: ${clip(dialog.message())}` });
        void dialog.dismiss().catch(() => undefined);
      });
      fresher.on('download', () => misconduct.push({ kind: 'download', detail: 'started a download' }));
      fresher.on('crash', () => (crashed = true));
      // Paused before the page runs, at the same instant for every load: no timer fires until
      // the plan advances the clock, and Date.now() reads the same in every case. A page
      // without scripts has no timers.
      if (scripts) {
        await fresher.clock.install({ time: CLOCK_START - 60_000 });
        await fresher.clock.pauseAt(CLOCK_START);
      }
      await step(() => fresher.goto(ARTIFACT_URL, { waitUntil: 'load' }));
      world = await JudgeWorld.open(fresher);
    };
    const inspect = (source: string | ((arg: unknown) => unknown), arg?: unknown) => {
      const expression = typeof source === 'string' ? source : inPage(source, arg);
      return step(() => {
        if (!world) throw new Error('load() the artifact first');
        return world.evaluate(expression);
      });
    };
    const session: BrowserSession = {
      get page() {
        return opened();
      },
      element: (selector) => opened().locator(selector).first(),
      inspect: inspect as BrowserSession['inspect'],
      pageErrors,
      consoleErrors,
      misconduct,
      load,
      advance: (ms) =>
        step(async () => {
          if (scripts) await opened().clock.runFor(ms);
        }),
      step,
    };
    try {
      return { value: await work(session) };
    } catch (error) {
      if (!(error instanceof SessionAbort)) {
        // The browser itself killed for memory (its largest process) ends the artifact as the page's.
        if (((await confinement?.oomKills()) ?? 0) > killsBefore) return { abort: (await memoryAbort()).abort };
        if (!browser.isConnected()) return { died: error instanceof Error ? error.message : String(error) };
        throw error;
      }
      return { abort: error.abort };
    } finally {
      if (!hung) await drop();
      launched.active--;
      if (hung) this.retire(launched);
      else if (launched.retired && launched.active === 0) this.retire(launched);
    }
  }

  /**
   * Serves the artifact at its origin, and its assets there to the page's own requests (not as
   * the top page: a navigation away stays one), and refuses everything else, saying what was
   * refused.
   */
  private async confine(
    context: BrowserContext,
    html: string,
    misconduct: Misconduct[],
    assets: ArtifactAssets | undefined,
  ): Promise<void> {
    await context.route('**/*', async (route) => {
      const request = route.request();
      if (request.url() === ARTIFACT_URL && request.isNavigationRequest() && request.frame().parentFrame() === null)
        return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
      const asset = assets?.get(assetPath(request.url()) ?? '');
      if (asset && !topNavigation(request))
        return route.fulfill({ status: 200, contentType: asset.contentType, body: Buffer.from(asset.body) });
      misconduct.push(
        request.isNavigationRequest()
          ? { kind: 'navigation', detail: `navigated to ${clip(request.url())}` }
          : { kind: 'network', detail: `requested ${clip(request.url())}` },
      );
      return route.abort('blockedbyclient');
    });
    await context.routeWebSocket(/.*/, (ws) => {
      misconduct.push({ kind: 'network', detail: `opened a WebSocket to ${clip(ws.url())}` });
      void ws.close().catch(() => undefined);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current = undefined;
    const all = [...this.all];
    this.all.clear();
    await Promise.all(all.map(shutDown));
  }
}

/** Closes a launched browser, then kills what is left of it and removes its sandbox. */
async function shutDown(launched: Launched): Promise<void> {
  await launched.browser.then((b) => b.close()).catch(() => undefined);
  await launched.confinement.then((c) => c?.dispose()).catch(() => undefined);
}

/**
 * Runs in every frame of the page before its scripts (an init script): RTCPeerConnection
 * constructed through any name it has — the global, webkitRTCPeerConnection, a subclass, an
 * instance's or the prototype's `constructor` — says so on the console first, with `mark`, which
 * the runtime turns into misconduct. The page cannot reach the constructor underneath: the
 * prototype's `constructor` is the watched one too.
 */
function watchPeerConnections(mark: string): void {
  const say = console.debug.bind(console);
  const original = (window as unknown as Record<string, unknown>).RTCPeerConnection as
    (abstract new (...args: unknown[]) => object) | undefined;
  if (typeof original !== 'function') return;
  const watched: typeof original = new Proxy(original, {
    construct(target, args, newTarget): object {
      say(mark);
      return Reflect.construct(target, args, newTarget === watched ? target : newTarget);
    },
  });
  Object.defineProperty(original.prototype, 'constructor', { value: watched, writable: true, configurable: true });
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection'])
    if (name in window) Object.defineProperty(window, name, { value: watched, writable: true, configurable: true });
}

/** How long a step that ran out of time waits to learn whether the page crashed instead, ms. */
const CRASH_GRACE_MS = 1_000;
const crashMessage = (mb: number) =>
  `the page crashed (it ran out of memory: the limit is ${mb} MB of JavaScript heap)`;
/**
 * A navigation of a top-level page: the artifact's, or a popup's (whose frame playwright cannot
 * give before it exists, and says so by throwing).
 */
function topNavigation(request: Request): boolean {
  if (!request.isNavigationRequest()) return false;
  try {
    return request.frame().parentFrame() === null;
  } catch {
    return true;
  }
}

/** The path of an asset `url` asks for (`images/a b.png`), or undefined when it is not at the artifact's origin. */
function assetPath(url: string): string | undefined {
  if (!url.startsWith(`${ARTIFACT_ORIGIN}/`)) return undefined;
  try {
    return decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '');
  } catch {
    return undefined;
  }
}
const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
