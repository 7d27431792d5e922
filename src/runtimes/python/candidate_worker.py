"""Warm Python candidate worker (runs inside the sandbox).

The long-lived parent ("zygote") never runs candidate code. For every candidate it
forks a child that drops privileges further (rlimits, seccomp), loads the program and
answers the judge over two FIFOs. The child can only talk to the judge process, which
decides every verdict; the zygote reports to Crucible only how the child ended."""
import ctypes
import fcntl
import gc
import json
import os
import resource
import select
import shutil
import signal
import _signal
import sys
import time
import traceback

sys.setrecursionlimit(10000)
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# Started with -S (see python-runtime.ts): site-packages come as arguments, so candidates
# can import installed packages without the cost of `site` in every fork.
sys.path.extend(sys.argv[1:])
import wire  # noqa: E402

# What model-written programs import most (typing alone in a third of HumanEval samples),
# imported once here so a candidate's import is a lookup in the pages it shares with this
# process, not 2-5 ms of its own. Its namespace starts empty all the same: a program that
# uses `math` without importing it still fails. Not `random` (nor `statistics`, which
# imports it): it reseeds itself in every fork, 0.1 ms for each candidate, and 1 HumanEval
# sample in 3,822 imports it (1.2 ms then).
import bisect, collections, copy, datetime, decimal, fractions, functools, hashlib, heapq, itertools, math, string, typing  # noqa: E401,E402,F401

wire.pin_builtins(sys.modules[__name__], traceback)

IPC_DIR = os.environ.get("CRUCIBLE_IPC", "/ipc")
SCRATCH = os.environ.get("CRUCIBLE_SCRATCH", "/tmp")
WORK_DIR = os.path.join(SCRATCH, "work")
PR_SET_DUMPABLE = 4


def reply(obj):
    os.write(1, (json.dumps(obj) + "\n").encode())


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_LIBC = ctypes.CDLL(None, use_errno=True)
_FILTERS = {}


def load_seccomp(path):
    """Reads and wraps a filter once, in the zygote, so a child only has to install it."""
    if not path or not os.path.exists(path):
        return None
    if path not in _FILTERS:
        with open(path, "rb") as f:
            prog = f.read()
        buf = ctypes.create_string_buffer(prog, len(prog))
        _FILTERS[path] = (buf, SockFprog(len(prog) // 8, ctypes.cast(buf, ctypes.c_void_p)))
    return _FILTERS[path][1]


def install_seccomp(fprog):
    if fprog is None:
        return
    PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
    if _LIBC.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS failed")
    if _LIBC.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp filter failed")


def limit(kind, value):
    if value:
        resource.setrlimit(kind, (int(value), int(value)))


CONTROL_FD = 3


def child_main(out, control):
    """Never returns. Forked ahead of time: it does the generic setup, then waits on
    `control` for the run's spec (limits), drops privileges and serves the judge.
    `out` is the write end of the pipe the zygote counts output from."""
    try:
        os.chdir(WORK_DIR)
        # stdout and stderr are a pipe the zygote reads and counts: a file could be
        # unlinked, truncated or seeked back to hide how much was printed.
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.dup2(control, CONTROL_FD)
        os.closerange(CONTROL_FD + 1, 4096)
        # _signal, not signal: its enum conversions touch pages the fork would have to copy.
        _signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)
        # Python ignores SIGXFSZ; restored so that a file written past the size limit
        # ends the candidate with SIGXFSZ (output-limit) instead of an OSError it can swallow.
        _signal.signal(_signal.SIGXFSZ, _signal.SIG_DFL)
        # The zygote ignores SIGINT (see main); candidates get Python's usual behaviour.
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        line = wire.LineReader(CONTROL_FD).readline()
        if line is None:
            os._exit(0)  # the worker is shutting down
        os.close(CONTROL_FD)
        spec = json.loads(line)
        limits = spec.get("limits", {})
        limit(resource.RLIMIT_AS, limits.get("memoryBytes"))
        limit(resource.RLIMIT_CPU, limits.get("cpuSeconds"))
        limit(resource.RLIMIT_FSIZE, limits.get("outputBytes"))
        limit(resource.RLIMIT_NOFILE, 64)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        install_seccomp(load_seccomp(spec.get("seccomp")))
        to_judge = os.open(os.path.join(IPC_DIR, "c2j"), os.O_WRONLY)
        from_judge = os.open(os.path.join(IPC_DIR, "j2c"), os.O_RDONLY)
        widen_pipe(to_judge)
        widen_pipe(from_judge)
        serve(from_judge, to_judge, limits.get("replyBytes", 64 << 20))
    except BaseException:
        try:
            os.write(2, traceback.format_exc().encode())
        finally:
            os._exit(70)
    os._exit(0)


def widen_pipe(fd):
    """1 MiB pipe buffers instead of 64 KiB: large outputs cross in far fewer wake-ups."""
    try:
        fcntl.fcntl(fd, 1031, 1 << 20)  # F_SETPIPE_SZ
    except OSError:
        pass


def describe(exc):
    if isinstance(exc, OSError) and exc.errno == 12:
        # ENOMEM (mmap, os.read into a huge buffer): the address-space limit, like MemoryError.
        return {"ok": False, "error": "MemoryError", "message": str(exc)[:2000]}
    return {"ok": False, "error": type(exc).__name__, "message": str(exc)[:2000]}


def serve(rfd, wfd, reply_bytes):
    reader = wire.LineReader(rfd)
    namespace = {}

    def send(obj):
        # One write per reply, at once: holding replies back to batch them would make a
        # fast call look slow whenever a slow call follows it (the judge times each reply).
        data = (wire.dumps(obj) + "\n").encode()
        if len(data) > reply_bytes:
            data = (wire.dumps({"ok": False, "error": "OutputLimit", "message": "return value larger than %d bytes" % reply_bytes}) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(wfd, view):]

    def call(fn, args, kwargs):
        t0 = time.perf_counter()
        try:
            value = fn(*args, **kwargs)
            dt = time.perf_counter() - t0
            try:
                encoded = wire.encode(value)
            except BaseException as exc:  # a hostile value whose type lies
                encoded = {"$t": "opaque", "type": "unencodable", "v": type(exc).__name__}
            # "v" last: the judge can compare its bytes with the expected ones without parsing.
            return {"ok": True, "dt": dt, "v": encoded}
        except BaseException as exc:
            r = describe(exc)
            r["dt"] = time.perf_counter() - t0
            return r

    while True:
        line = reader.readline()
        if line is None:
            return
        msg = json.loads(line)
        op = msg["op"]
        if op == "end":
            return
        if op == "load":
            try:
                exec(compile(msg["program"], "<candidate>", "exec"), namespace)
                names = [k for k, v in list(namespace.items()) if not k.startswith("__") and callable(v)]
                send({"ok": True, "names": names})
            except BaseException as exc:
                send(describe(exc))
        elif op == "call":
            fn = namespace.get(msg["name"])
            if fn is None:
                send({"ok": False, "error": "NameError", "message": "name %r is not defined" % msg["name"]})
                continue
            args = wire.decode(msg.get("args", []))
            kwargs = wire.decode(msg.get("kwargs", {}))
            send(call(fn, args, kwargs))
        elif op == "batch":
            fn = namespace.get(msg["name"])
            for raw in msg["inputs"]:
                if fn is None:
                    send({"ok": False, "error": "NameError", "message": "name %r is not defined" % msg["name"]})
                else:
                    send(call(fn, wire.decode(raw), {}))
        elif op == "inline":
            # Arguments that cannot cross the boundary (objects, callbacks): run the test
            # code next to the candidate, as in-process harnesses do. Weaker guarantee.
            try:
                exec(compile(msg["code"], "<test>", "exec"), namespace)
                if msg.get("invoke"):
                    exec(compile(msg["invoke"], "<test>", "exec"), namespace)
                send({"ok": True, "v": None})
            except BaseException as exc:
                send(describe(exc))


def wipe_scratch():
    """Empties the scratch directory, including what a candidate made hard to remove
    (directories without permissions). Everything there is the previous candidate's."""
    try:
        os.chmod(SCRATCH, 0o755)
    except OSError:
        pass
    for root, dirs, _ in os.walk(SCRATCH):
        for d in dirs:
            path = os.path.join(root, d)
            if os.path.islink(path):
                continue  # chmod would follow it out of scratch (to /dev/null, owned by us as root)
            try:
                os.chmod(path, 0o700)
            except OSError:
                pass
    try:
        names = os.listdir(SCRATCH)
    except OSError:
        return
    for name in names:
        path = os.path.join(SCRATCH, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass
    prepare_scratch()


_PRISTINE = []


def prepare_scratch():
    """Creates the empty working directory and remembers how scratch looks with nothing in it."""
    os.makedirs(WORK_DIR, exist_ok=True)
    _PRISTINE[:] = [_shape(SCRATCH), _shape(WORK_DIR)]


def _shape(path):
    # ctime moves with every change of a directory's metadata (mode, owner, times, extended
    # attributes) or contents, and no program can set it back.
    st = os.lstat(path)
    return st.st_mode, st.st_uid, st.st_gid, st.st_mtime_ns, st.st_ctime_ns


def scratch_pristine():
    """True when scratch is as prepare_scratch left it: only the empty working directory,
    nothing about either changed. Most candidates write nothing, and walking and wiping
    scratch after each of them cost about 0.3 ms (measured)."""
    try:
        with os.scandir(SCRATCH) as entries:
            if [e.name for e in entries] != ["work"]:
                return False
        with os.scandir(WORK_DIR) as entries:
            if next(entries, None) is not None:
                return False
        return [_shape(SCRATCH), _shape(WORK_DIR)] == _PRISTINE
    except OSError:
        return False


def scratch_cut_off(cap):
    """`cap` when a write to scratch was cut off by a limit, even if the candidate caught
    the error: a file at the size limit, or the sandbox's /tmp full. Otherwise 0."""
    if "CRUCIBLE_SCRATCH" not in os.environ:  # our own sized tmpfs, not a host directory
        try:
            st = os.statvfs(SCRATCH)
            if st.f_bavail * st.f_frsize < cap:
                return cap
        except OSError:
            pass
    seen = 0
    for root, _, files in os.walk(SCRATCH):
        for f in files:
            seen += 1
            if seen > 10000:
                return 0
            try:
                if os.lstat(os.path.join(root, f)).st_size >= cap:
                    return cap
            except OSError:
                continue
    return 0


# Our own program, in the style of the programs candidates send (type hints, a class, a
# comprehension, an f-string, a lambda, a generator, try/except).
_WARM_UP_PROGRAM = """
from typing import List, Optional, Tuple
import math

class Pair:
    def __init__(self, a: int, b: int) -> None:
        self.a, self.b = a, b

def solve(numbers: List[float], k: Optional[int] = None) -> Tuple[int, str]:
    total = sum(x * x for x in numbers if x > 0)
    keyed = sorted({str(n): n for n in numbers}.items(), key=lambda kv: kv[1])
    try:
        ratio = total / len(numbers)
    except ZeroDivisionError:
        ratio = math.inf
    return int(min(ratio, 10**6)), f"{len(keyed)}:{Pair(1, 2).a}"
"""


def warm_up():
    """Runs, once in the zygote, the paths every candidate takes: the first compile() in a
    process builds the parser's and compiler's tables, and a fork that did it itself paid
    for them again each time (about 1 ms of page faults per candidate, measured)."""
    for _ in range(3):
        namespace = {}
        exec(compile(_WARM_UP_PROGRAM, "<warm-up>", "exec"), namespace)
        value = namespace["solve"](wire.decode(json.loads(json.dumps([[1.5, 2, -3]])))[0])
        wire.dumps({"ok": True, "dt": 0.0, "v": wire.encode(value)})
    _LIBC.prctl  # noqa: B018 (ctypes caches the function on first lookup)


def become_zygote():
    """Readies a worker that forks untrusted code (candidates, programs): its protections, a
    warm compiler and an empty scratch directory. Returns its stdin."""
    # The code runs as the same user as this process. Non-dumpable, its memory
    # (/proc/1/mem, process_vm_writev) and its fds (/proc/1/fd) are closed to them;
    # otherwise the code could rewrite the unfiltered zygote and escape seccomp.
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    # This process is its PID namespace's init (bwrap --as-pid-1): signals sent from
    # inside reach it only if it handles them, and Python handles SIGINT.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up()
    wipe_scratch()
    return wire.LineReader(0)


def main():
    stdin = become_zygote()
    # One child is always forked ahead, so a run does not wait for fork and setup.
    child = fork_child()
    for msg in wire.requests(stdin, reply):
        if msg["op"] != "start":
            continue
        pid, out_r, control = child
        cap = int(msg.get("limits", {}).get("outputBytes") or (1 << 20))
        load_seccomp(msg.get("seccomp"))
        os.write(control, (json.dumps({"limits": msg.get("limits", {}), "seccomp": msg.get("seccomp")}) + "\n").encode())
        os.close(control)
        reply({"op": "started"})
        pidfd = os.pidfd_open(pid)
        status = usage = None
        size = 0
        watched = [0, pidfd, out_r]
        while status is None:
            ready, _, _ = select.select(watched, [], [])
            if out_r in ready:
                size += drain(out_r, watched)
                if size >= cap:
                    # Printing past the limit ends the candidate at once (output-limit).
                    os.kill(pid, signal.SIGKILL)
            if pidfd in ready:
                _, status, usage = os.wait4(pid, 0)
            elif 0 in ready:
                inner = stdin.readline()
                if inner is None:
                    os.kill(pid, signal.SIGKILL)
                    return
                if json.loads(inner).get("op") == "kill":
                    os.kill(pid, signal.SIGKILL)
        os.close(pidfd)
        if out_r in watched:
            size += drain(out_r, watched, until_eof=True)
        os.close(out_r)
        if not scratch_pristine():
            size = max(size, scratch_cut_off(cap))
            # Nothing a candidate left behind may reach the next one; cleaning now charges
            # the time it takes (a candidate can leave millions of empty files) to this run.
            wipe_scratch()
        reply({
            "op": "exited",
            "cpuSeconds": usage.ru_utime + usage.ru_stime,
            "maxRssBytes": usage.ru_maxrss * 1024,
            "code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "outputBytes": size,
        })
        child = fork_child()


def fork_child():
    """Forks the next candidate process; it waits for its spec on a control pipe."""
    sys.stdout.flush()
    # Every object so far moves out of the collector's reach: a collection in the child
    # would otherwise write to each of them and copy most of this process's pages.
    gc.freeze()
    out_r, out_w = os.pipe()
    control_r, control_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(out_r)
        os.close(control_w)
        child_main(out_w, control_r)
    os.close(out_w)
    os.close(control_r)
    os.set_blocking(out_r, False)
    return pid, out_r, control_w


def drain(fd, watched, until_eof=False):
    """Reads and discards what a candidate printed; returns how many bytes."""
    total = 0
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return total
        if not chunk:
            watched.remove(fd)
            return total
        total += len(chunk)
        if not until_eof:
            return total


if __name__ == "__main__":
    main()
