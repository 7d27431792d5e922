"""Warm Python candidate worker (runs inside the sandbox).

The long-lived parent ("zygote") never runs candidate code. For every candidate it
forks a child that drops privileges further (rlimits, seccomp), loads the program and
answers the judge over two FIFOs. The child can only talk to the judge process, which
decides every verdict; the zygote reports to Crucible only how the child ended."""
import ctypes
import json
import os
import resource
import select
import shutil
import signal
import sys
import time
import traceback

sys.setrecursionlimit(10000)
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import wire  # noqa: E402

IPC_DIR = os.environ.get("CRUCIBLE_IPC", "/ipc")
SCRATCH = os.environ.get("CRUCIBLE_SCRATCH", "/tmp")
OUTPUT_FILE = os.path.join(SCRATCH, "candidate-output")
WORK_DIR = os.path.join(SCRATCH, "work")


def reply(obj):
    os.write(1, (json.dumps(obj) + "\n").encode())


def read_line(fd, buf):
    while b"\n" not in buf[0]:
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        buf[0] += chunk
    line, _, rest = buf[0].partition(b"\n")
    buf[0] = rest
    return line


def install_seccomp(path):
    if not path or not os.path.exists(path):
        return
    with open(path, "rb") as f:
        prog = f.read()
    count = len(prog) // 8
    libc = ctypes.CDLL(None, use_errno=True)

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buf = ctypes.create_string_buffer(prog, len(prog))
    fprog = SockFprog(count, ctypes.cast(buf, ctypes.c_void_p))
    PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS failed")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "seccomp filter failed")


def limit(kind, value):
    if value:
        resource.setrlimit(kind, (int(value), int(value)))


def child_main(spec):
    """Never returns."""
    try:
        limits = spec.get("limits", {})
        limit(resource.RLIMIT_AS, limits.get("memoryBytes"))
        limit(resource.RLIMIT_CPU, limits.get("cpuSeconds"))
        limit(resource.RLIMIT_FSIZE, limits.get("outputBytes"))
        limit(resource.RLIMIT_NOFILE, 64)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        os.makedirs(WORK_DIR, exist_ok=True)
        os.chdir(WORK_DIR)
        out = os.open(OUTPUT_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.closerange(3, 4096)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        install_seccomp(spec.get("seccomp"))
        to_judge = os.open(os.path.join(IPC_DIR, "c2j"), os.O_WRONLY)
        from_judge = os.open(os.path.join(IPC_DIR, "j2c"), os.O_RDONLY)
        serve(from_judge, to_judge, limits.get("replyBytes", 64 << 20))
    except BaseException:
        try:
            os.write(2, traceback.format_exc().encode())
        finally:
            os._exit(70)
    os._exit(0)


def describe(exc):
    return {"ok": False, "error": type(exc).__name__, "message": str(exc)[:2000]}


def serve(rfd, wfd, reply_bytes):
    buf = [b""]
    namespace = {}

    def send(obj):
        data = (wire.dumps(obj) + "\n").encode()
        if len(data) > reply_bytes:
            data = (wire.dumps({"ok": False, "error": "OutputLimit", "message": "return value larger than %d bytes" % reply_bytes}) + "\n").encode()
        os.write(wfd, data)

    def call(fn, args, kwargs):
        t0 = time.perf_counter()
        try:
            value = fn(*args, **kwargs)
            dt = time.perf_counter() - t0
            try:
                encoded = wire.encode(value)
            except BaseException as exc:  # a hostile value whose type lies
                encoded = {"$t": "opaque", "type": "unencodable", "v": type(exc).__name__}
            return {"ok": True, "v": encoded, "dt": dt}
        except BaseException as exc:
            r = describe(exc)
            r["dt"] = time.perf_counter() - t0
            return r

    while True:
        line = read_line(rfd, buf)
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


def main():
    buf = [b""]
    while True:
        line = read_line(0, buf)
        if line is None:
            return
        msg = json.loads(line)
        if msg["op"] == "ping":
            reply({"op": "pong"})
            continue
        if msg["op"] != "start":
            continue
        # Nothing a previous candidate left behind may reach the next one.
        shutil.rmtree(WORK_DIR, ignore_errors=True)
        try:
            os.unlink(OUTPUT_FILE)
        except FileNotFoundError:
            pass
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            child_main(msg)
        reply({"op": "started"})
        pidfd = os.pidfd_open(pid)
        status = usage = None
        while status is None:
            ready, _, _ = select.select([0, pidfd], [], [])
            if pidfd in ready:
                _, status, usage = os.wait4(pid, 0)
            elif 0 in ready:
                inner = read_line(0, buf)
                if inner is None:
                    os.kill(pid, signal.SIGKILL)
                    return
                if json.loads(inner).get("op") == "kill":
                    os.kill(pid, signal.SIGKILL)
        os.close(pidfd)
        try:
            size = os.path.getsize(OUTPUT_FILE)
        except OSError:
            size = 0
        reply({
            "op": "exited",
            "cpuSeconds": usage.ru_utime + usage.ru_stime,
            "maxRssBytes": usage.ru_maxrss * 1024,
            "code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "outputBytes": size,
        })


if __name__ == "__main__":
    main()
