/**
 * The judging browser in the project's sandbox: its processes have no network of their own to
 * reach (WebRTC's UDP, which goes around the routes and the proxy, sends nothing, and the page
 * is told it misbehaved by whatever name it reached RTCPeerConnection), its memory is capped
 * over all its processes (ArrayBuffers the heap limit does not count end in `memory`), and its
 * seccomp filter lets a browser make processes but not sockets past AF_UNIX. After each hostile
 * page, the right game is judged right.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BrowserRuntime } from '../src/browser/runtime.js';
import { gamesPack, prepareGameChecks, type GameChecks, type GameTask } from '../src/domains/games/index.js';
import { parsePlan } from '../src/domains/games/plan.js';
import { buildSeccompFilter } from '../src/runtimes/seccomp.js';

const MEMORY_MB = 1024;
const runtime = new BrowserRuntime({ heapMb: 128, memoryMb: MEMORY_MB });
after(() => runtime.close());

const game = (extra = '') => `<!doctype html>
<html><body><button id="inc">+1</button><span id="count">0</span>
<script>
  let n = 0;
  document.getElementById('inc').addEventListener('click', () => (document.getElementById('count').textContent = String(++n)));
  ${extra}
</script></body></html>`;
const RIGHT = game();
const plan = parsePlan([{ name: 'counts', steps: [{ click: '#inc' }, { expect: { selector: '#count', text: '1' } }] }]);
assert.ok('plan' in plan);
const task: GameTask = { id: 'games/count', prompt: 'A counter.', plan: plan.plan, reference: RIGHT };
let checks: GameChecks;
before(async () => {
  checks = await prepareGameChecks(runtime, task, { audience: 'scorer', seed: 1 });
});

const nextIsRight = async () => {
  const next = await gamesPack(runtime).verify(checks, RIGHT);
  assert.equal(next.passed, true, JSON.stringify(next.failures));
};

/** A UDP listener on this machine's loopback, counting what reaches it. */
async function listener() {
  const socket = dgram.createSocket('udp4');
  let packets = 0;
  socket.on('message', () => packets++);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, packets: () => packets, close: () => socket.close() };
}

/** A data channel offered through a STUN server at `port`: ICE sends its binding requests there. */
const stun = (construct: string, port: number) => `
  const pc = ${construct}({ iceServers: [{ urls: 'stun:127.0.0.1:${port}' }] });
  pc.createDataChannel('leak');
  pc.createOffer().then((offer) => pc.setLocalDescription(offer));`;

const ways: Array<[string, string]> = [
  ['the global RTCPeerConnection', 'new RTCPeerConnection'],
  ['webkitRTCPeerConnection', 'new webkitRTCPeerConnection'],
  ["the prototype's constructor", 'new RTCPeerConnection.prototype.constructor'],
  [
    "a fresh iframe's RTCPeerConnection",
    "new (document.body.appendChild(document.createElement('iframe')).contentWindow.RTCPeerConnection)",
  ],
  ['a subclass', 'new (class extends RTCPeerConnection {})'],
];
for (const [how, construct] of ways) {
  test(`WebRTC through ${how} reaches nothing and is the page's misconduct; the next game is judged right`, async () => {
    const udp = await listener();
    try {
      const report = await gamesPack(runtime).verify(checks, game(stun(construct, udp.port)));
      // ICE would have sent its requests by now (a few ms on loopback).
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(udp.packets(), 0, 'packets reached the listener');
      assert.equal(report.verdict.status, 'error', JSON.stringify(report.verdict.suites));
      assert.match(JSON.stringify(report.failures), /opened a WebRTC connection/);
    } finally {
      udp.close();
    }
    await nextIsRight();
  });
}

test("ArrayBuffers past the browser's memory end in status memory (the heap limit does not count them); the next game is judged right", async () => {
  // 64 MB at a time, to three times the cap; each is written, so that its pages are real.
  const hungry = game(
    `const kept = []; for (let i = 0; i < ${(3 * MEMORY_MB) / 64}; i++) kept.push(new Uint8Array(64 << 20).fill(1));`,
  );
  const report = await gamesPack(runtime).verify(checks, hungry);
  assert.equal(report.verdict.status, 'memory', JSON.stringify(report.failures));
  assert.match(JSON.stringify(report.failures), new RegExp(`${MEMORY_MB} MB`));
  await nextIsRight();
});

/** The processes below this one, by their parent links in /proc. */
function descendants(): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone already.
    }
  }
  const below = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) if (below.has(ppid) && !below.has(pid)) (below.add(pid), (grew = true));
  }
  below.delete(process.pid);
  return [...below];
}

/** The browser's processes (bubblewrap's carry its arguments too: the browser is the chromium binary). */
const browserProcesses = () =>
  descendants().filter((pid) => {
    try {
      return readlinkSync(`/proc/${pid}/exe`).endsWith('/chromium');
    } catch {
      return false;
    }
  });

test("every process of the browser is in a network namespace of its own, not this machine's", async () => {
  await runtime.version();
  const own = readlinkSync('/proc/self/ns/net');
  const browsers = browserProcesses();
  assert.ok(browsers.length > 0, 'no browser process found');
  for (const pid of browsers) assert.notEqual(readlinkSync(`/proc/${pid}/ns/net`), own, `process ${pid}`);
});

test('a browser that dies under an artifact, not for memory, judges it again in a fresh one; dying twice is no-verdict; the next game is judged right', async () => {
  const killBrowser = () => {
    for (const pid of browserProcesses()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  };
  let tries = 0;
  const again = await runtime.judge(RIGHT, async (session) => {
    await session.load();
    if (tries++ === 0) {
      killBrowser();
      await session.load();
    }
    return session.inspect<string>('document.getElementById("count").textContent');
  });
  assert.deepEqual(again, { value: '0' });
  assert.equal(tries, 2);
  const always = await runtime.judge(RIGHT, async (session) => {
    await session.load();
    killBrowser();
    await session.load();
    return 'judged';
  });
  assert.ok('abort' in always, JSON.stringify(always));
  assert.equal(always.abort.status, 'no-verdict');
  assert.match(always.abort.message, /died twice/);
  await nextIsRight();
});

test(
  "the browser's seccomp filter: processes and AF_UNIX sockets yes, an AF_INET socket no",
  { skip: process.arch !== 'x64' ? 'the filter is x86-64' : false },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'crucible-seccomp-'));
    try {
      const file = join(dir, 'filter.bpf');
      writeFileSync(file, buildSeccompFilter({ forbidExec: false, processTree: true }));
      const fd = openSync(file, 'r');
      const script = `
      const { execFileSync } = require('node:child_process');
      const net = require('node:net');
      const out = { child: execFileSync('/bin/echo', ['child']).toString().trim() };
      const server = net.createServer();
      server.on('error', (e) => { out.inet = e.code; unix(); });
      server.listen(0, '127.0.0.1', () => { out.inet = 'listening'; server.close(); unix(); });
      function unix() {
        const local = net.createServer().listen('/tmp/s', () => { out.unix = 'listening'; local.close(); console.log(JSON.stringify(out)); });
      }`;
      const ran = spawnSync(
        '/usr/bin/bwrap',
        [
          '--unshare-all',
          '--ro-bind',
          '/',
          '/',
          '--tmpfs',
          '/tmp',
          '--dev',
          '/dev',
          '--proc',
          '/proc',
          '--seccomp',
          '3',
          '--',
          process.execPath,
          '-e',
          script,
        ],
        { stdio: ['ignore', 'pipe', 'pipe', fd], encoding: 'utf8' },
      );
      closeSync(fd);
      assert.deepEqual(JSON.parse(ran.stdout), { child: 'child', inet: 'EAFNOSUPPORT', unix: 'listening' }, ran.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
