"""Warm Python *program* worker (runs inside the sandbox): whole programs as __main__.

Where the candidate worker serves calls to a program's functions, this one runs a whole
program the way `python main.py < stdin` would, for SandboxFusion-style `/run_code`. The
long-lived parent ("zygote") never runs program code: each program gets a child forked
ahead of time that receives its spec, sets rlimits (address space, CPU, file size, open
files), installs the no-fork/no-exec seccomp filter and runs the program. The zygote
keeps stdout and stderr (pipes it reads as they fill: a program cannot block on them),
cuts them at the output cap, enforces the wall-clock limit and reports how it ended.

Protocol (stdin/stdout, one JSON object per line; see PROTOCOL.md):
  {"op":"ping"} -> {"op":"pong"}
  {"op":"run","code","stdin","files":{path:b64},"fetch":[path],"limits":{memoryBytes,
   cpuSeconds,wallSeconds,outputBytes},"seccomp":path|null} -> {"op":"result",...}
"""
import base64
import builtins
import io
import json
import os
import resource
import select
import signal
import stat
import _signal  # the fork uses it: signal's enum conversions touch pages a fork must copy
import sys
import time
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# Reuses the candidate worker's seccomp, rlimit and scratch helpers (it does not run on import).
import candidate_worker as cw  # noqa: E402
import wire  # noqa: E402

CONTROL_FD = 3
REPORT_FD = 4


def reply(obj):
    data = (json.dumps(obj) + "\n").encode()
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]


DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def open_in_work(path, flags, make_dirs=False):
    """A file descriptor for `path`, relative to the work directory, or None. No step may be
    a symbolic link, the work directory included: the program may have replaced any of
    them by one (to /proc/1, whose files are this worker's own), so each is opened with
    O_NOFOLLOW relative to the one before it."""
    if not isinstance(path, str) or not path or path.startswith("/") or "\0" in path:
        return None
    parts = os.path.normpath(path).split("/")
    if parts[0] in ("..", "."):
        return None
    fd = None
    try:
        fd = os.open(os.path.dirname(cw.WORK_DIR), DIR_FLAGS & ~os.O_NOFOLLOW)
        for name in [os.path.basename(cw.WORK_DIR)] + parts[:-1]:
            if make_dirs:
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
            inner = os.open(name, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = inner
        return os.open(parts[-1], flags | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=fd)
    except OSError:
        return None
    finally:
        if fd is not None:
            os.close(fd)


def report(obj):
    try:
        os.write(REPORT_FD, (json.dumps(obj) + "\n").encode())
    except OSError:
        pass


def child_main(out_w, err_w, report_w, control_r):
    """Never returns: waits for the spec, confines itself, runs the program as __main__."""
    try:
        os.chdir(cw.WORK_DIR)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        os.dup2(control_r, CONTROL_FD)
        os.dup2(report_w, REPORT_FD)
        os.closerange(REPORT_FD + 1, 4096)
        _signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)
        _signal.signal(_signal.SIGXFSZ, _signal.SIG_DFL)
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        line = wire.LineReader(CONTROL_FD).readline()
        if line is None:
            os._exit(0)
        os.close(CONTROL_FD)
        spec = json.loads(line)
        # stdin is a memory file: any size, no pipe to keep fed, seekable as a file would be.
        stdin_fd = os.memfd_create("stdin")
        data = (spec.get("stdin") or "").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(stdin_fd, view):]
        os.lseek(stdin_fd, 0, os.SEEK_SET)
        os.dup2(stdin_fd, 0)
        os.close(stdin_fd)
        for path, b64 in (spec.get("files") or {}).items():
            # A path that cannot be made (it leaves the work directory, or goes through a
            # file another path made) is left out, as fetch leaves out what is not there.
            fd = open_in_work(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, make_dirs=True) if isinstance(b64, str) else None
            if fd is not None:
                with open(fd, "wb") as f:
                    f.write(base64.b64decode(b64))
        limits = spec.get("limits", {})
        cw.limit(resource.RLIMIT_AS, limits.get("memoryBytes"))
        cw.limit(resource.RLIMIT_CPU, limits.get("cpuSeconds"))
        cw.limit(resource.RLIMIT_FSIZE, limits.get("outputBytes"))
        cw.limit(resource.RLIMIT_NOFILE, 64)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        cw.install_seccomp(cw.load_seccomp(spec.get("seccomp")))
        code = spec.get("code") or ""
    except BaseException:
        os.write(2, traceback.format_exc().encode())
        os._exit(70)
    os._exit(run_program(code))


def run_program(code):
    """Runs `code` as `python main.py` would; returns the exit status."""
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8", errors="surrogateescape")
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="backslashreplace")
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True)
    sys.argv = ["main.py"]
    try:
        compiled = compile(code, "main.py", "exec")
    except BaseException as exc:
        traceback.print_exception(type(exc), exc, None)
        report({"phase": "compile", "error": type(exc).__name__})
        return finish(1)
    main = types.ModuleType("__main__")
    main.__file__ = os.path.join(cw.WORK_DIR, "main.py")
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    status = 0
    try:
        exec(compiled, main.__dict__)
    except SystemExit as exc:
        status = exit_status(exc.code)
    except BaseException as exc:
        # Our own frame is not part of the program's traceback.
        traceback.print_exception(type(exc), exc, exc.__traceback__.tb_next)
        report({"phase": "run", "error": type(exc).__name__})
        status = 1
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:
            pass
    return finish(status)


def exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except BaseException:
        pass
    return 1


def finish(status):
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            status = status or 1
    return status


def fork_child():
    sys.stdout.flush()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    rep_r, rep_w = os.pipe()
    control_r, control_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        for fd in (out_r, err_r, rep_r, control_w):
            os.close(fd)
        child_main(out_w, err_w, rep_w, control_r)
    for fd in (out_w, err_w, rep_w, control_r):
        os.close(fd)
    for fd in (out_r, err_r, rep_r):
        os.set_blocking(fd, False)
        cw.widen_pipe(fd)
    return pid, out_r, err_r, rep_r, control_w


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def run_one(child, msg):
    pid, out_r, err_r, rep_r, control = child
    limits = msg.get("limits", {})
    cap = int(limits.get("outputBytes") or (1 << 20))
    wall = float(limits.get("wallSeconds") or 10)
    cw.load_seccomp(msg.get("seccomp"))
    spec = {k: msg.get(k) for k in ("code", "stdin", "files", "seccomp")}
    spec["limits"] = limits
    t0 = time.monotonic()
    try:
        write_all(control, (json.dumps(spec) + "\n").encode())
    except OSError:
        pass  # the child is gone; its exit status says why
    os.close(control)
    deadline = t0 + wall
    pidfd = os.pidfd_open(pid)
    kept = {out_r: [], err_r: []}
    size = 0
    truncated = timed_out = False
    open_fds = [out_r, err_r]
    status = usage = None
    while status is None:
        remaining = deadline - time.monotonic()
        if remaining <= 0 and not timed_out:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
        ready, _, _ = select.select(open_fds + [pidfd], [], [], max(remaining, 0) if not timed_out else None)
        for fd in open_fds[:]:
            if fd in ready:
                size, cut = read_capped(fd, kept[fd], size, cap, open_fds)
                if cut and not truncated:
                    truncated = True
                    os.kill(pid, signal.SIGKILL)
        if pidfd in ready:
            _, status, usage = os.wait4(pid, 0)
    wall_seconds = time.monotonic() - t0
    os.close(pidfd)
    # What is still in the pipes after the exit (the child is gone: EOF comes).
    for fd in open_fds[:]:
        while fd in open_fds:
            size, cut = read_capped(fd, kept[fd], size, cap, open_fds)
            truncated = truncated or cut
            if cut:
                break
    pristine = cw.scratch_pristine()
    scratch_full = not pristine and cw.scratch_cut_off(cap) > 0
    files = {} if pristine else fetch_files(msg.get("fetch") or [], cap)
    if not pristine:
        cw.wipe_scratch()
    child_report = read_report(rep_r)
    for fd in (out_r, err_r, rep_r):
        os.close(fd)
    return {
        "op": "result",
        "exitCode": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "stdout": b"".join(kept[out_r]).decode("utf-8", "replace"),
        "stderr": b"".join(kept[err_r]).decode("utf-8", "replace"),
        "truncated": truncated,
        "scratchFull": scratch_full,
        "timedOut": timed_out,
        "wallSeconds": wall_seconds,
        "cpuSeconds": usage.ru_utime + usage.ru_stime,
        "maxRssBytes": usage.ru_maxrss * 1024,
        "report": child_report,
        "files": files,
    }


def read_capped(fd, kept, size, cap, open_fds):
    """Reads what is there; keeps bytes up to the cap. Returns (size, cut off)."""
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return size, False
        if not chunk:
            open_fds.remove(fd)
            return size, False
        room = cap - size
        if len(chunk) > room:
            kept.append(chunk[:max(room, 0)])
            return cap, True
        kept.append(chunk)
        size += len(chunk)


def read_report(fd):
    try:
        data = os.read(fd, 1 << 16)
    except OSError:
        return None
    # The program may have written here itself: only the last line, and only its fields.
    for line in reversed(data.splitlines()):
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            return {"phase": str(obj.get("phase", ""))[:20], "error": str(obj.get("error", ""))[:100]}
    return None


def fetch_files(paths, cap):
    """The regular files among `paths` the program left, read up to `cap` bytes. The program
    is gone (no process of it is left to swap a link in); O_NONBLOCK so that a FIFO it
    left there cannot block this open."""
    out = {}
    for path in paths[:100]:
        fd = open_in_work(path, os.O_RDONLY | os.O_NONBLOCK)
        if fd is None:
            continue
        try:
            with open(fd, "rb") as f:
                if stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                    out[path] = base64.b64encode(f.read(cap)).decode()
        except OSError:
            continue
    return out


def main():
    stdin = cw.become_zygote()
    child = fork_child()
    for msg in wire.requests(stdin, reply):
        if msg.get("op") == "run":
            reply(run_one(child, msg))
            child = fork_child()


if __name__ == "__main__":
    main()
