/**
 * A classic-BPF seccomp filter that forbids creating processes (and a few other things a
 * candidate could use to reach past its own process; see `denied`). bubblewrap loads it from
 * a file descriptor (`--seccomp`), and the Python worker installs it in each forked
 * candidate through prctl. Written by hand because no npm package emits raw cBPF and the
 * program is a dozen instructions.
 */
const AUDIT_ARCH_X86_64 = 0xc000003e;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const ENOSYS = 38;
const CLONE_THREAD = 0x00010000;

const enum Syscall {
  shmget = 29,
  chmod = 90,
  fchmod = 91,
  setxattr = 188,
  lsetxattr = 189,
  fsetxattr = 190,
  removexattr = 197,
  lremovexattr = 198,
  fremovexattr = 199,
  fchmodat = 268,
  fchmodat2 = 452,
  clone = 56,
  fork = 57,
  vfork = 58,
  execve = 59,
  semget = 64,
  msgget = 68,
  ptrace = 101,
  mq_open = 240,
  add_key = 248,
  request_key = 249,
  keyctl = 250,
  unshare = 272,
  perf_event_open = 298,
  prlimit64 = 302,
  setns = 308,
  process_vm_readv = 310,
  process_vm_writev = 311,
  bpf = 321,
  execveat = 322,
  userfaultfd = 323,
  clone3 = 435,
}

// BPF opcodes
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

type Instruction = [code: number, jt: number, jf: number, k: number];

export interface SeccompOptions {
  /** Also forbid execve/execveat: the process may not become another program. */
  readonly forbidExec: boolean;
}

/** True where the filter can be built (the syscall numbers are x86-64's). */
export const seccompSupported = process.arch === 'x64' && process.platform === 'linux';

export function buildSeccompFilter(options: SeccompOptions): Buffer {
  const denied: Array<[Syscall, number]> = [
    [Syscall.fork, EPERM],
    [Syscall.vfork, EPERM],
    [Syscall.ptrace, EPERM],
    // glibc falls back to clone() when clone3 is "not implemented", where flags are checkable.
    [Syscall.clone3, ENOSYS],
    // Reading or writing another process's memory: the candidate runs as the same user as
    // the worker, which has no filter (it must fork).
    [Syscall.process_vm_readv, EPERM],
    [Syscall.process_vm_writev, EPERM],
    // A new user namespace gives full capabilities in it: mounts (an unlimited tmpfs), ...
    [Syscall.unshare, EPERM],
    [Syscall.setns, EPERM],
    // State that outlives the process inside the long-lived sandbox and is not counted by
    // RLIMIT_AS (SysV shared memory, message queues, keys): the next candidate would find it.
    [Syscall.shmget, EPERM],
    [Syscall.semget, EPERM],
    [Syscall.msgget, EPERM],
    [Syscall.mq_open, EPERM],
    [Syscall.add_key, EPERM],
    [Syscall.request_key, EPERM],
    [Syscall.keyctl, EPERM],
    // Kernel attack surface no candidate needs.
    [Syscall.bpf, EPERM],
    [Syscall.userfaultfd, EPERM],
    [Syscall.perf_event_open, EPERM],
  ];
  if (options.forbidExec) {
    denied.push([Syscall.execve, EPERM], [Syscall.execveat, EPERM]);
    // bwrap bind-mounts the host's /dev/null, /dev/zero, /dev/tty... read-write (a read-only
    // remount would add nodev), and when Crucible runs as root the sandbox user owns them:
    // chmod 000 /dev/null would break the host, xattrs on it would outlive the candidate.
    denied.push(
      [Syscall.chmod, EPERM],
      [Syscall.fchmod, EPERM],
      [Syscall.fchmodat, EPERM],
      [Syscall.fchmodat2, EPERM],
      [Syscall.setxattr, EPERM],
      [Syscall.lsetxattr, EPERM],
      [Syscall.fsetxattr, EPERM],
      [Syscall.removexattr, EPERM],
      [Syscall.lremovexattr, EPERM],
      [Syscall.fremovexattr, EPERM],
    );
  }

  const program: Instruction[] = [];
  program.push([LD_W_ABS, 0, 0, 4]); // seccomp_data.arch
  program.push([JEQ_K, 1, 0, AUDIT_ARCH_X86_64]);
  program.push([RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS]);
  program.push([LD_W_ABS, 0, 0, 0]); // seccomp_data.nr
  program.push([JGE_K, 0, 1, 0x40000000]); // x32 ABI: refuse outright
  program.push([RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM]);
  for (const [nr, errno] of denied) {
    program.push([JEQ_K, 0, 1, nr]);
    program.push([RET_K, 0, 0, SECCOMP_RET_ERRNO | errno]);
  }
  // prlimit64 only on the calling process (pid 0, as glibc's getrlimit/setrlimit do):
  // lowering the worker's limits would break every later candidate in that sandbox.
  program.push([JEQ_K, 0, 6, Syscall.prlimit64]);
  program.push([LD_W_ABS, 0, 0, 16]); // low 32 bits of args[0] (pid)
  program.push([JEQ_K, 0, 2, 0]);
  program.push([LD_W_ABS, 0, 0, 20]); // high 32 bits
  program.push([JEQ_K, 1, 0, 0]);
  program.push([RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM]);
  program.push([RET_K, 0, 0, SECCOMP_RET_ALLOW]);
  // clone() is allowed only for threads.
  program.push([JEQ_K, 0, 3, Syscall.clone]);
  program.push([LD_W_ABS, 0, 0, 16]); // low 32 bits of args[0] (flags)
  program.push([JSET_K, 1, 0, CLONE_THREAD]);
  program.push([RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM]);
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
