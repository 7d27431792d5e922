/**
 * A classic-BPF seccomp filter that forbids creating processes. bubblewrap loads it from
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
  clone = 56,
  fork = 57,
  vfork = 58,
  execve = 59,
  ptrace = 101,
  execveat = 322,
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
  ];
  if (options.forbidExec) denied.push([Syscall.execve, EPERM], [Syscall.execveat, EPERM]);

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
