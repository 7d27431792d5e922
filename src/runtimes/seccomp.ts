/**
 * A classic-BPF seccomp filter that forbids creating processes (and a few other things a
 * candidate could use to reach past its own process; see `rules`). bubblewrap loads it from
 * a file descriptor (`--seccomp`), and the Python worker installs it in each forked
 * candidate through prctl. Written by hand because no npm package emits raw cBPF and the
 * program is a list of comparisons.
 */
const AUDIT_ARCH_X86_64 = 0xc000003e;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;
const CLONE_THREAD = 0x00010000;
const AF_UNIX = 1;
const PRIO_PROCESS = 0;
const IOPRIO_WHO_PROCESS = 1;
const F_SETOWN = 8;
const F_SETOWN_EX = 15;
const FIOSETOWN = 0x8901;
const SIOCSPGRP = 0x8902;

const enum Syscall {
  ioctl = 16,
  shmget = 29,
  socket = 41,
  socketpair = 53,
  clone = 56,
  fork = 57,
  vfork = 58,
  execve = 59,
  kill = 62,
  semget = 64,
  msgget = 68,
  fcntl = 72,
  chmod = 90,
  fchmod = 91,
  ptrace = 101,
  rt_sigqueueinfo = 129,
  setpriority = 141,
  sched_setparam = 142,
  sched_setscheduler = 144,
  setxattr = 188,
  lsetxattr = 189,
  fsetxattr = 190,
  removexattr = 197,
  lremovexattr = 198,
  fremovexattr = 199,
  tkill = 200,
  sched_setaffinity = 203,
  tgkill = 234,
  mq_open = 240,
  add_key = 248,
  request_key = 249,
  keyctl = 250,
  ioprio_set = 251,
  fchmodat = 268,
  unshare = 272,
  rt_tgsigqueueinfo = 297,
  perf_event_open = 298,
  prlimit64 = 302,
  setns = 308,
  process_vm_readv = 310,
  process_vm_writev = 311,
  sched_setattr = 314,
  memfd_create = 319,
  bpf = 321,
  execveat = 322,
  userfaultfd = 323,
  pidfd_send_signal = 424,
  io_uring_setup = 425,
  io_uring_enter = 426,
  io_uring_register = 427,
  pidfd_open = 434,
  clone3 = 435,
  pidfd_getfd = 438,
  process_madvise = 440,
  memfd_secret = 447,
  process_mrelease = 448,
  fchmodat2 = 452,
}

// BPF opcodes
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

type Instruction = [code: number, jt: number, jf: number, k: number];

/**
 * A test of the low 32 bits of one argument. Every argument tested here is a C int, pid_t or
 * unsigned int (or clone's flags, whose CLONE_THREAD bit is in the low half), which the kernel
 * truncates to 32 bits itself: the high half cannot change what the call does. `lt` and `ge`
 * compare unsigned, so a negative pid is at least 0x80000000.
 */
type Condition = readonly [arg: number, test: 'eq' | 'ne' | 'ge' | 'lt' | 'set', k: number];

/** The call fails with `errno` unless every condition of `allowIf` holds (without any, always). */
interface Rule {
  readonly nr: Syscall;
  readonly errno: number;
  readonly allowIf?: readonly Condition[];
}

const refuse = (errno: number, ...nrs: Syscall[]): Rule[] => nrs.map((nr) => ({ nr, errno }));
/** Only on the calling thread or process (target 0): never on another process in the sandbox. */
const onlySelf = (...nrs: Syscall[]): Rule[] => nrs.map((nr) => ({ nr, errno: EPERM, allowIf: [[0, 'eq', 0]] }));
/** A pid of 2 or more: not PID 1 (the zygote), nor 0 or negative (process groups, kill(-1)). */
const TARGET_PAST_INIT: readonly Condition[] = [
  [0, 'ge', 2],
  [0, 'lt', 0x80000000],
];

export interface SeccompOptions {
  /**
   * Also forbid execve/execveat: the process may not become another program. Set for the
   * processes a worker forks (Python's candidates and programs), which also may not reach the
   * worker above them; a worker filtered by bwrap itself (JavaScript) is alone in its sandbox.
   */
  readonly forbidExec: boolean;
  /**
   * The process may make a tree of processes of its own and share memory between them: a
   * browser (its zygote, renderers and utility processes, which pass memfds to each other).
   * Everything else is refused as for a worker.
   */
  readonly processTree?: boolean;
}

/** True where the filter can be built (the syscall numbers are x86-64's). */
export const seccompSupported = process.arch === 'x64' && process.platform === 'linux';

export function buildSeccompFilter(options: SeccompOptions): Buffer {
  const processes: Rule[] = options.processTree
    ? []
    : [
        ...refuse(EPERM, Syscall.fork, Syscall.vfork),
        // glibc falls back to clone() when clone3 is "not implemented", where flags are checkable.
        ...refuse(ENOSYS, Syscall.clone3),
        { nr: Syscall.clone, errno: EPERM, allowIf: [[0, 'set', CLONE_THREAD]] }, // threads only
      ];
  const rules: Rule[] = [
    ...processes,
    ...refuse(EPERM, Syscall.ptrace),
    // Reading or writing another process's memory: the candidate runs as the same user as
    // the worker, which has no filter (it must fork).
    ...refuse(EPERM, Syscall.process_vm_readv, Syscall.process_vm_writev),
    // A new user namespace gives full capabilities in it: mounts (an unlimited tmpfs), ...
    ...refuse(EPERM, Syscall.unshare, Syscall.setns),
    // State that outlives the process inside the long-lived sandbox and is not counted by
    // RLIMIT_AS (SysV shared memory, message queues, keys): the next candidate would find it.
    ...refuse(
      EPERM,
      Syscall.shmget,
      Syscall.semget,
      Syscall.msgget,
      Syscall.mq_open,
      Syscall.add_key,
      Syscall.request_key,
      Syscall.keyctl,
    ),
    // Memory outside RLIMIT_AS and the sized /tmp. The program worker makes its stdin a
    // memfd before it installs the filter. A browser's processes share memory through memfds
    // (its memory is limited by a cgroup instead, which counts them).
    ...(options.processTree
      ? refuse(EPERM, Syscall.memfd_secret)
      : refuse(EPERM, Syscall.memfd_create, Syscall.memfd_secret)),
    // Kernel attack surface no candidate needs. io_uring also runs socket, open... calls
    // that this filter never sees; ENOSYS is "old kernel", which libuv falls back from.
    ...refuse(EPERM, Syscall.bpf, Syscall.userfaultfd, Syscall.perf_event_open),
    ...refuse(ENOSYS, Syscall.io_uring_setup, Syscall.io_uring_enter, Syscall.io_uring_register),
    // Sockets only between processes: the sandbox has no network, and other families reach
    // past its network namespace (AF_VSOCK: the hypervisor's host) or into the kernel
    // (AF_NETLINK, AF_ALG...). EAFNOSUPPORT is what a kernel without the family says.
    ...[Syscall.socket, Syscall.socketpair].map((nr): Rule => ({
      nr,
      errno: EAFNOSUPPORT,
      allowIf: [[0, 'eq', AF_UNIX]],
    })),
    // Limits, priority, CPUs, scheduling policy and I/O class only of the caller: lowering
    // the worker's would slow (or starve) every later candidate, which inherits them.
    ...onlySelf(
      Syscall.prlimit64,
      Syscall.sched_setaffinity,
      Syscall.sched_setscheduler,
      Syscall.sched_setparam,
      Syscall.sched_setattr,
    ),
    // PRIO_PGRP and PRIO_USER (and their I/O counterparts) reach the worker too.
    {
      nr: Syscall.setpriority,
      errno: EPERM,
      allowIf: [
        [0, 'eq', PRIO_PROCESS],
        [1, 'eq', 0],
      ],
    },
    {
      nr: Syscall.ioprio_set,
      errno: EPERM,
      allowIf: [
        [0, 'eq', IOPRIO_WHO_PROCESS],
        [1, 'eq', 0],
      ],
    },
  ];
  // bwrap bind-mounts the host's /dev/null, /dev/zero, /dev/tty... read-write (a read-only
  // remount would add nodev), and when Crucible runs as root the sandbox user owns them:
  // chmod 000 /dev/null would break the host, xattrs on it would outlive the candidate. In
  // every filter: a worker filtered by bwrap (JavaScript) runs its candidates in its own process.
  rules.push(
    ...refuse(EPERM, Syscall.chmod, Syscall.fchmod, Syscall.fchmodat, Syscall.fchmodat2),
    ...refuse(
      EPERM,
      Syscall.setxattr,
      Syscall.lsetxattr,
      Syscall.fsetxattr,
      Syscall.removexattr,
      Syscall.lremovexattr,
      Syscall.fremovexattr,
    ),
  );
  if (options.forbidExec) {
    rules.push(...refuse(EPERM, Syscall.execve, Syscall.execveat));
    // Signals only to itself (a pid of 2 or more). The worker is PID 1 and gets from inside
    // only the signals it handles, but a handler added there one day must not become the
    // candidate's to trigger. Not for a worker filtered by bwrap: it is PID 1 itself, and its
    // raise() and abort() signal PID 1. By descriptor, pidfds (and /proc/1 opened as one)
    // would signal or reach PID 1 too, and a file's owner receives its SIGIO.
    rules.push(
      ...[Syscall.kill, Syscall.tkill, Syscall.tgkill, Syscall.rt_sigqueueinfo, Syscall.rt_tgsigqueueinfo].map(
        (nr): Rule => ({ nr, errno: EPERM, allowIf: TARGET_PAST_INIT }),
      ),
      ...refuse(
        EPERM,
        Syscall.pidfd_open,
        Syscall.pidfd_send_signal,
        Syscall.pidfd_getfd,
        Syscall.process_madvise,
        Syscall.process_mrelease,
      ),
      {
        nr: Syscall.fcntl,
        errno: EPERM,
        allowIf: [
          [1, 'ne', F_SETOWN],
          [1, 'ne', F_SETOWN_EX],
        ],
      },
      {
        nr: Syscall.ioctl,
        errno: EPERM,
        allowIf: [
          [1, 'ne', FIOSETOWN],
          [1, 'ne', SIOCSPGRP],
        ],
      },
    );
  }

  const program: Instruction[] = [];
  program.push([LD_W_ABS, 0, 0, 4]); // seccomp_data.arch
  program.push([JEQ_K, 1, 0, AUDIT_ARCH_X86_64]);
  program.push([RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS]);
  program.push([LD_W_ABS, 0, 0, 0]); // seccomp_data.nr
  program.push([JGE_K, 0, 1, 0x40000000]); // x32 ABI: refuse outright
  program.push([RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM]);
  for (const rule of rules) program.push(...compile(rule));
  program.push([RET_K, 0, 0, SECCOMP_RET_ALLOW]);

  const out = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}

/**
 * `if (nr == rule.nr) { [load an argument, jump to the refusal unless it passes]...; allow;
 * refuse }`, skipped as a whole for other calls (the accumulator still holds nr after it).
 */
function compile(rule: Rule): Instruction[] {
  const conditions = rule.allowIf ?? [];
  const body: Instruction[] = [];
  conditions.forEach(([arg, test, k], i) => {
    const toRefusal = 2 * (conditions.length - i) - 1; // past the later conditions and the allow
    body.push([LD_W_ABS, 0, 0, 16 + 8 * arg]); // seccomp_data.args[arg], low 32 bits
    if (test === 'ne') body.push([JEQ_K, toRefusal, 0, k]);
    else if (test === 'lt') body.push([JGE_K, toRefusal, 0, k]);
    else body.push([test === 'eq' ? JEQ_K : test === 'ge' ? JGE_K : JSET_K, 0, toRefusal, k]);
  });
  if (conditions.length > 0) body.push([RET_K, 0, 0, SECCOMP_RET_ALLOW]);
  body.push([RET_K, 0, 0, SECCOMP_RET_ERRNO | rule.errno]);
  return [[JEQ_K, 0, body.length, rule.nr], ...body];
}
