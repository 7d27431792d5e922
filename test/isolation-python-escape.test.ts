/**
 * Hostile Python programs that try to leave the sandbox: start processes, reach the
 * network, write outside their scratch directory, read the host's secrets or environment,
 * or reach other processes and the kernel. Every attempt must fail; the program then
 * returns the list of attempts that worked, which must be only the probe's control.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createSocket, type Socket } from 'node:dgram';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Harness } from '../src/verify/harness.js';
import { expectNextJudged, expectProbeClean, expectVerdict, newHarness, py, summary, TASK } from './isolation-python-support.js';

// Set before any worker exists: no worker may inherit it.
const SECRET = `crucible-secret-${process.pid}-${Date.now()}`;
process.env.CRUCIBLE_TEST_SECRET = SECRET;

let h: Harness;
let tcp: Server;
let unixAbstract: Server;
let udp: Socket;
let connections = 0;
let datagrams = 0;
let tcpPort = 0;
let udpPort = 0;
const abstractName = `crucible-test-${process.pid}`;
const hostDir = mkdtempSync(join(tmpdir(), 'crucible-secret-'));
const hostSecret = join(hostDir, 'secret.txt');
const rootSecret = `/root/crucible-secret-${process.pid}.txt`;
let rootSecretWritten = false;

before(async () => {
  writeFileSync(hostSecret, SECRET);
  try {
    writeFileSync(rootSecret, SECRET);
    rootSecretWritten = true;
  } catch {
    // not root: /root is not ours to write; the host temp dir still covers reading
  }
  tcp = createServer((socket) => {
    connections++;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as { port: number }).port;
  unixAbstract = createServer((socket) => {
    connections++;
    socket.end('hello\n');
  });
  await new Promise<void>((resolve) => unixAbstract.listen(`\0${abstractName}`, resolve));
  udp = createSocket('udp4', (message, remote) => {
    datagrams++;
    udp.send(message, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  udpPort = udp.address().port;
  h = newHarness();
});

after(async () => {
  await h.close();
  tcp.close();
  unixAbstract.close();
  udp.close();
  rmSync(hostDir, { recursive: true, force: true });
  if (rootSecretWritten) rmSync(rootSecret, { force: true });
});

describe('processes', () => {
  // Each program returns the right answer only if a process really ran.
  const cases: Array<[string, string]> = [
    ['os.fork', 'pid = os.fork()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)'],
    ['os.system', 'assert os.system("/bin/true") == 0'],
    ['subprocess.run', 'assert subprocess.run(["/bin/true"]).returncode == 0'],
    ['subprocess with a shell', 'assert subprocess.check_output("echo hi", shell=True) == b"hi\\n"'],
    ['multiprocessing.Process', 'p = multiprocessing.Process(target=print)\np.start()\np.join()\nassert p.exitcode == 0'],
    ['multiprocessing.Pool', 'with multiprocessing.Pool(2) as pool:\n    assert pool.map(abs, [-1]) == [1]'],
    ['os.posix_spawn', 'os.waitpid(os.posix_spawn("/bin/true", ["/bin/true"], {}), 0)'],
    ['os.forkpty', 'pid, fd = os.forkpty()\nif pid == 0:\n    os._exit(0)\nos.waitpid(pid, 0)'],
    ['os.execv', 'os.execv("/bin/true", ["/bin/true"])'],
    ['a raw clone() via ctypes', 'assert ctypes.CDLL(None).syscall(56, 17, 0, 0, 0, 0) >= 0  # clone(SIGCHLD)'],
    ['a raw vfork() via ctypes', 'assert ctypes.CDLL(None).syscall(58) >= 0'],
  ];
  for (const [label, attempt] of cases) {
    it(`refuses ${label}: fail`, () =>
      expectVerdict(
        h,
        `import ctypes, multiprocessing, os, subprocess\ndef add(a, b):\n    try:\n${attempt.replace(/^/gm, '        ')}\n    except Exception:\n        return "refused"\n    return a + b\n`,
        'fail',
        { actual: "'refused'" },
      ));
  }

  it('refuses os.execv at load time (the program never becomes another one): error', () =>
    expectVerdict(h, 'import os\nos.execv("/bin/true", ["/bin/true"])\ndef add(a, b):\n    return a + b\n', 'error'));
});

describe('network', () => {
  it('cannot reach a TCP server of the host on 127.0.0.1', async () => {
    await expectProbeClean(h, `attempt('tcp', lambda: socket.create_connection(('127.0.0.1', ${tcpPort}), timeout=0.5).recv(5))`);
    assert.equal(connections, 0);
  });

  it('cannot reach the host through any of its addresses', async () => {
    const addresses = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && a.family === 'IPv4')
      .map((a) => a!.address);
    const body = addresses.map((a) => `attempt('tcp ${a}', lambda: socket.create_connection((${py(a)}, ${tcpPort}), timeout=0.5))`).join('\n');
    await expectProbeClean(h, body || 'pass');
    assert.equal(connections, 0);
  });

  it('cannot reach an abstract unix socket of the host', async () => {
    await expectProbeClean(
      h,
      `def unix():\n    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n    s.connect(${py(`\0${abstractName}`)})\n    return s.recv(5)\nattempt('abstract unix socket', unix)`,
    );
    assert.equal(connections, 0);
  });

  it('cannot exchange UDP datagrams with the host', async () => {
    const body = [
      'def udp():',
      '    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)',
      '    s.settimeout(0.5)',
      `    s.sendto(b"ping", ("127.0.0.1", ${udpPort}))`,
      '    return s.recvfrom(16)',
      "attempt('udp', udp)",
    ].join('\n');
    await expectProbeClean(h, body);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(datagrams, 0);
  });

  it('cannot resolve names (DNS)', () =>
    expectProbeClean(
      h,
      ["attempt('dns example.com', lambda: socket.getaddrinfo('example.com', 80))", "attempt('dns github.com', lambda: socket.gethostbyname('github.com'))"].join('\n'),
    ));

  it('cannot reach an outside address', () => expectProbeClean(h, "attempt('tcp 1.1.1.1', lambda: socket.create_connection(('1.1.1.1', 53), timeout=0.5))"));
});

describe('files', () => {
  const writable = ['/etc/crucible', '/usr/crucible', '/crucible', '/ipc/crucible', '/crucible/python/crucible', '/root/crucible', '/dev/shm/crucible', '/dev/crucible', '/proc/crucible', '/bin/crucible'];

  it('cannot write anywhere but its scratch directory', () =>
    expectProbeClean(h, writable.map((p) => `attempt(${py(`write ${p}`)}, lambda: open(${py(p)}, 'w').write('x'))`).join('\n')));

  it('cannot replace the worker scripts or the seccomp program', () =>
    expectProbeClean(
      h,
      ['/crucible/python/judge_worker.py', '/crucible/python/wire.py', '/ipc/seccomp.bpf']
        .map((p) => `attempt(${py(`overwrite ${p}`)}, lambda: open(${py(p)}, 'r+b').write(b'#'))`)
        .join('\n'),
    ));

  it('cannot read secrets of the host (its temp dir, /root, /etc)', () => {
    const paths = [hostSecret, ...(rootSecretWritten ? [rootSecret] : []), '/etc/shadow', '/etc/passwd', '/root/.bash_history', '/root/.ssh'];
    return expectProbeClean(h, paths.map((p) => `attempt(${py(`read ${p}`)}, lambda: os.stat(${py(p)}))`).join('\n'));
  });

  it('cannot find the secret anywhere in its file system', () =>
    expectProbeClean(
      h,
      [
        'import stat',
        'def search():',
        '    for top in ("/root", "/tmp", "/ipc", "/etc", "/crucible", "/dev"):',
        '        for root, dirs, files in os.walk(top):',
        "            dirs[:] = [d for d in dirs if d != '.pyenv']  # the interpreter: thousands of files",
        '            for f in files:',
        '                path = os.path.join(root, f)',
        '                try:',
        '                    if not stat.S_ISREG(os.lstat(path).st_mode):',
        '                        continue  # FIFOs and devices (/ipc/j2c, /dev/ptmx) would block',
        `                    if ${py(SECRET)}.encode() in open(path, "rb").read(1 << 20):`,
        '                        return True',
        '                except OSError:',
        '                    pass',
        '    return False',
        "attempt('secret found', search)",
      ].join('\n'),
    ));

  it("cannot see the host's environment (os.environ, /proc/self/environ, /proc/1/environ)", () =>
    expectProbeClean(
      h,
      [
        `attempt('os.environ', lambda: ${py(SECRET)} in str(dict(os.environ)) or 'CRUCIBLE_TEST_SECRET' in os.environ or False)`,
        ...['/proc/self/environ', '/proc/1/environ', '/proc/thread-self/environ'].map(
          (p) => `attempt(${py(p)}, lambda: b'CRUCIBLE_TEST_SECRET' in open(${py(p)}, 'rb').read() or False)`,
        ),
      ].join('\n'),
    ));
});

describe('other processes and the kernel', () => {
  it('cannot write host-wide sysctls in /proc/sys (the sandbox user is root outside when Crucible is)', () =>
    expectProbeClean(
      h,
      ['/proc/sys/vm/drop_caches', '/proc/sys/kernel/core_pattern', '/proc/sys/kernel/hostname', '/proc/sysrq-trigger']
        // Opening for writing is the test; nothing is ever written.
        .map((p) => `attempt(${py(`open ${p}`)}, lambda: os.close(os.open(${py(p)}, os.O_WRONLY)))`)
        .join('\n'),
    ));

  it("cannot change the host's device nodes bound into /dev (chmod, xattrs)", () =>
    expectProbeClean(
      h,
      [
        'import stat',
        // The same mode again: a no-op if it were ever allowed.
        ...['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty'].map(
          (p) => `attempt(${py(`chmod ${p}`)}, lambda: os.chmod(${py(p)}, stat.S_IMODE(os.stat(${py(p)}).st_mode)))`,
        ),
        'def xattr():',
        "    os.setxattr('/dev/null', 'user.crucible', b'x')",
        "    os.removexattr('/dev/null', 'user.crucible')",
        "attempt('setxattr /dev/null', xattr)",
      ].join('\n'),
    ));

  it("cannot read or write the worker's memory, files or limits", () =>
    expectProbeClean(
      h,
      [
        "attempt('/proc/1/mem', lambda: open('/proc/1/mem', 'rb').close())",
        "attempt('/proc/ppid/mem', lambda: open('/proc/%d/mem' % os.getppid(), 'r+b').close())",
        "attempt('/proc/1/fd/0 link', lambda: os.readlink('/proc/1/fd/0'))",
        "attempt('/proc/1/fd/1', lambda: os.close(os.open('/proc/1/fd/1', os.O_WRONLY)))",
        "attempt('/proc/1/maps', lambda: open('/proc/1/maps').read())",
        'import resource',
        "attempt('prlimit on the worker', lambda: resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (3, 3)))",
        "attempt('prlimit read of the worker', lambda: resource.prlimit(1, resource.RLIMIT_AS))",
        'def vm():',
        '    class iovec(ctypes.Structure):',
        "        _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]",
        '    buf = ctypes.create_string_buffer(8)',
        '    local = iovec(ctypes.cast(buf, ctypes.c_void_p), 8)',
        '    remote = iovec(0x400000, 8)',
        '    libc = ctypes.CDLL(None, use_errno=True)',
        '    libc.process_vm_readv(os.getppid(), ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)',
        '    return ctypes.get_errno() != errno.EPERM',
        "attempt('process_vm_readv', vm)",
        "attempt('ptrace attach', lambda: ctypes.CDLL(None).ptrace(16, os.getppid(), 0, 0) == 0 or False)",
        "attempt('ptrace traceme', lambda: ctypes.CDLL(None).ptrace(0, 0, 0, 0) == 0 or False)",
      ].join('\n'),
    ));

  it('cannot create state that would outlive it (SysV IPC, message queues, keys) or new namespaces', () =>
    expectProbeClean(
      h,
      [
        'libc = ctypes.CDLL(None, use_errno=True)',
        "attempt('shmget', lambda: libc.shmget(0, 1 << 20, 0o1600) >= 0 or False)",
        "attempt('semget', lambda: libc.semget(0, 1, 0o1600) >= 0 or False)",
        "attempt('msgget', lambda: libc.msgget(0, 0o1600) >= 0 or False)",
        "attempt('mq_open', lambda: libc.syscall(240, b'q', 0o100 | 2, 0o600, None) >= 0 or False)",
        "attempt('add_key', lambda: libc.syscall(248, b'user', b'k', b'v', 1, -3) >= 0 or False)",
        "attempt('unshare user', lambda: libc.unshare(0x10000000) == 0 or False)",
        "attempt('unshare mount', lambda: libc.unshare(0x00020000) == 0 or False)",
        "attempt('bpf', lambda: libc.syscall(321, 0, None, 0) >= 0 or False)",
        "attempt('userfaultfd', lambda: libc.syscall(323, 0) >= 0 or False)",
      ].join('\n'),
    ));

  // What a candidate inherits from its worker (forked from it): nice value, CPUs, scheduling
  // policy and I/O priority, of itself and of the worker (PID 1).
  const INHERITED = [
    'import ctypes, os',
    'def state(pid):',
    '    ioprio = ctypes.CDLL(None).syscall(252, 1, pid)  # ioprio_get(IOPRIO_WHO_PROCESS)',
    '    return (os.getpriority(os.PRIO_PROCESS, pid), sorted(os.sched_getaffinity(pid)), os.sched_getscheduler(pid), ioprio)',
    'STATE = [state(0), state(1)]',
    'def add(a, b):',
    '    return STATE',
    '',
  ].join('\n');

  it("cannot lower its worker's priority, CPUs, scheduling policy or I/O priority, which later candidates inherit", async () => {
    const before = await h.judge(TASK, INHERITED);
    assert.ok(before.firstFailure?.actual, summary(before));
    await expectProbeClean(
      h,
      [
        'import struct',
        'libc = ctypes.CDLL(None, use_errno=True)',
        "attempt('setpriority of pid 1', lambda: os.setpriority(os.PRIO_PROCESS, 1, 19))",
        "attempt('setpriority of its process group', lambda: os.setpriority(os.PRIO_PGRP, 0, 19))",
        "attempt('setpriority of its user', lambda: os.setpriority(os.PRIO_USER, 0, 19))",
        "attempt('sched_setaffinity of pid 1', lambda: os.sched_setaffinity(1, {min(os.sched_getaffinity(1))}))",
        "attempt('sched_setscheduler of pid 1', lambda: os.sched_setscheduler(1, os.SCHED_IDLE, os.sched_param(0)))",
        "attempt('sched_setparam of pid 1', lambda: os.sched_setparam(1, os.sched_param(0)))",
        // struct sched_attr: size, policy SCHED_IDLE, flags, nice 19, priority, runtime, deadline, period.
        "attempt('sched_setattr of pid 1', lambda: libc.syscall(314, 1, struct.pack('IIQiIQQQ', 48, 5, 0, 19, 0, 0, 0, 0), 0) == 0 or False)",
        // ioprio_set(IOPRIO_WHO_PROCESS / _PGRP / _USER, who, the idle class).
        "attempt('ioprio_set of pid 1', lambda: libc.syscall(251, 1, 1, 3 << 13) == 0 or False)",
        "attempt('ioprio_set of its process group', lambda: libc.syscall(251, 2, 0, 3 << 13) == 0 or False)",
        "attempt('ioprio_set of its user', lambda: libc.syscall(251, 3, 0, 3 << 13) == 0 or False)",
        // Its own, which no later candidate inherits.
        "works('os.nice', lambda: os.nice(1))",
        "works('sched_setaffinity of itself', lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)))",
        "works('ioprio_set of itself', lambda: libc.syscall(251, 1, 0, 3 << 13) == 0)",
      ].join('\n'),
    );
    await expectVerdict(h, INHERITED, 'fail', { actual: before.firstFailure!.actual! });
  });

  it('cannot signal its worker or its process group (kill, tkill, tgkill, sigqueue, pidfds, SIGIO owners)', () =>
    expectProbeClean(
      h,
      [
        'import fcntl, struct, threading',
        'libc = ctypes.CDLL(None, use_errno=True)',
        // Signal 0 tests the permission and delivers nothing.
        "attempt('kill pid 1', lambda: os.kill(1, 0))",
        "attempt('kill its process group', lambda: os.kill(0, 0))",
        "attempt('kill(-1)', lambda: os.kill(-1, 0))",
        "attempt('tkill pid 1', lambda: libc.syscall(200, 1, 0) == 0 or False)",
        "attempt('tgkill pid 1', lambda: libc.syscall(234, 1, 1, 0) == 0 or False)",
        // A siginfo with si_code SI_QUEUE, as sigqueue() sends.
        "info = struct.pack('iii', 0, 0, -1) + bytes(116)",
        "attempt('rt_sigqueueinfo pid 1', lambda: libc.syscall(129, 1, 0, info) == 0 or False)",
        "attempt('rt_tgsigqueueinfo pid 1', lambda: libc.syscall(297, 1, 1, 0, info) == 0 or False)",
        "attempt('pidfd_open pid 1', lambda: os.pidfd_open(1))",
        "attempt('pidfd_send_signal to /proc/1', lambda: signal.pidfd_send_signal(os.open('/proc/1', os.O_RDONLY | os.O_DIRECTORY), 0))",
        // The owner of a file receives its SIGIO (or the signal F_SETSIG names).
        'def owned(set_owner):',
        '    a, b = socket.socketpair()',
        '    set_owner(a.fileno())',
        "attempt('F_SETOWN pid 1', lambda: owned(lambda fd: fcntl.fcntl(fd, 8, 1)))",
        "attempt('F_SETOWN its process group', lambda: owned(lambda fd: fcntl.fcntl(fd, 8, -1)))",
        "attempt('F_SETOWN_EX pid 1', lambda: owned(lambda fd: fcntl.fcntl(fd, 15, struct.pack('ii', 1, 1))))",
        "attempt('FIOSETOWN pid 1', lambda: owned(lambda fd: fcntl.ioctl(fd, 0x8901, struct.pack('i', 1))))",
        "attempt('SIOCSPGRP pid 1', lambda: owned(lambda fd: fcntl.ioctl(fd, 0x8902, struct.pack('i', 1))))",
        // Itself (its pid is 2 or more), as threads, timeouts and crashes do.
        "works('kill itself', lambda: os.kill(os.getpid(), 0))",
        "works('pthread_kill of its thread', lambda: signal.pthread_kill(threading.get_ident(), 0))",
        'got = []',
        'signal.signal(signal.SIGUSR1, lambda *a: got.append(1))',
        "works('raise_signal', lambda: signal.raise_signal(signal.SIGUSR1) or got[0])",
        "works('fcntl F_GETFL', lambda: fcntl.fcntl(0, fcntl.F_GETFL))",
      ].join('\n'),
    ));

  const selfKills: Array<[string, string]> = [
    ['os.kill(os.getpid(), SIGTERM)', 'os.kill(os.getpid(), signal.SIGTERM)'],
    ['os.kill(os.getpid(), SIGKILL)', 'os.kill(os.getpid(), signal.SIGKILL)'],
    ['signal.raise_signal(SIGSEGV)', 'signal.raise_signal(signal.SIGSEGV)'],
    ['os.abort()', 'os.abort()'],
  ];
  for (const [label, line] of selfKills) {
    it(`can still end itself with a signal (${label}): error, as a crash`, async () => {
      const verdict = await h.judge(TASK, `import os, signal\ndef add(a, b):\n    ${line}\n    return a + b\n`);
      assert.equal(verdict.status, 'error', summary(verdict));
      assert.match(verdict.suites[0]?.firstFailure?.message ?? '', /killed by signal|crashed/, summary(verdict));
      await expectNextJudged(h);
    });
  }

  it('cannot open sockets other than between processes, io_uring or memory files', () =>
    expectProbeClean(
      h,
      [
        'libc = ctypes.CDLL(None, use_errno=True)',
        "attempt('AF_INET socket', lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))",
        "attempt('AF_INET6 socket', lambda: socket.socket(socket.AF_INET6, socket.SOCK_DGRAM))",
        "attempt('AF_NETLINK socket', lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))",
        "attempt('AF_VSOCK socket', lambda: socket.socket(40, socket.SOCK_STREAM))",
        "attempt('AF_PACKET socket', lambda: socket.socket(17, socket.SOCK_RAW, 0))",
        "attempt('AF_ALG socket', lambda: socket.socket(38, socket.SOCK_SEQPACKET, 0))",
        "attempt('socketpair AF_INET', lambda: libc.socketpair(2, 1, 0, ctypes.create_string_buffer(8)) == 0 or False)",
        // struct io_uring_params is 120 bytes.
        "attempt('io_uring_setup', lambda: libc.syscall(425, 4, ctypes.create_string_buffer(120)) >= 0 or False)",
        "attempt('memfd_create', lambda: os.memfd_create('crucible'))",
        "attempt('memfd_secret', lambda: libc.syscall(447, 0) >= 0 or False)",
        "works('AF_UNIX socket', lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))",
        "works('socketpair', lambda: socket.socketpair())",
      ].join('\n'),
    ));
});
