"""Trusted Python judge (runs inside its own sandbox, never next to a candidate).

It runs a task's test code against proxies whose calls go to the candidate process
over FIFOs, and compares outputs with the expected ones (EvalPlus semantics). Values
arrive as plain data decoded by wire.py, so nothing the candidate returns can lie
about equality, and nothing it does can patch this process."""
import builtins
import errno
import json
import linecache
import math
import os
import select
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import wire  # noqa: E402
import oracles  # noqa: E402

IPC_DIR = os.environ.get("CRUCIBLE_IPC", "/ipc")
PROTO = os.dup(1)
_null = os.open(os.devnull, os.O_WRONLY)
os.dup2(_null, 1)  # test code that prints cannot corrupt the protocol
sys.setrecursionlimit(10000)


class Timeout(BaseException):
    pass


class CandidateGone(BaseException):
    pass


class Limit(BaseException):
    """The candidate hit a memory or output limit inside a call."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class NeedsInline(BaseException):
    pass


class CandidateError(Exception):
    pass


def short(x, n=500):
    try:
        r = repr(x)
    except BaseException:
        r = "<unprintable>"
    return r if len(r) <= n else r[: n - 3] + "..."


class Channel:
    def __init__(self, connect_seconds):
        self.rfd = os.open(os.path.join(IPC_DIR, "c2j"), os.O_RDONLY | os.O_NONBLOCK)
        deadline = time.monotonic() + connect_seconds
        while True:
            try:
                self.wfd = os.open(os.path.join(IPC_DIR, "j2c"), os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as e:
                if e.errno != errno.ENXIO:
                    raise
                if time.monotonic() > deadline:
                    os.close(self.rfd)
                    raise CandidateGone("candidate process never connected")
                time.sleep(0.0005)
        os.set_blocking(self.wfd, True)
        self.buf = b""
        self.gone = False

    def send(self, obj):
        data = (wire.dumps(obj) + "\n").encode()
        try:
            view = memoryview(data)
            while view:
                n = os.write(self.wfd, view)
                view = view[n:]
        except (BrokenPipeError, OSError):
            self.gone = True
            raise CandidateGone("candidate process is gone")

    def recv(self, deadline):
        while b"\n" not in self.buf:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Timeout()
            ready, _, _ = select.select([self.rfd], [], [], remaining)
            if not ready:
                raise Timeout()
            try:
                chunk = os.read(self.rfd, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                self.gone = True
                raise CandidateGone("candidate process ended")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        try:
            return json.loads(line)
        except ValueError:
            raise CandidateGone("candidate wrote a malformed reply")

    def close(self):
        for fd in (self.rfd, self.wfd):
            try:
                os.close(fd)
            except OSError:
                pass


def raise_candidate_error(r):
    name = r.get("error", "Exception")
    message = r.get("message", "")
    if name == "MemoryError":
        raise Limit("memory", "MemoryError")
    if name == "OutputLimit":
        raise Limit("output-limit", message)
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, Exception):
        try:
            exc = cls(message)
        except BaseException:
            exc = CandidateError("%s: %s" % (name, message))
    else:
        exc = CandidateError("%s: %s" % (name, message))
    exc.crucible_candidate = True
    raise exc


class Run:
    def __init__(self, channel):
        self.ch = channel
        self.last_call = None

    def proxy(self, name, deadline_ref):
        run = self

        def call(*args, **kwargs):
            try:
                enc_args = wire.encode(list(args), strict=True)
                enc_kwargs = wire.encode(kwargs, strict=True)
            except wire.Unencodable:
                raise NeedsInline()
            run.last_call = (name, args, kwargs, None)
            run.ch.send({"op": "call", "name": name, "args": enc_args, "kwargs": enc_kwargs})
            r = run.ch.recv(deadline_ref[0])
            if not r.get("ok"):
                raise_candidate_error(r)
            value = wire.decode(r["v"])
            run.last_call = (name, args, kwargs, value)
            return value

        call.__name__ = name
        return call


def suite_result(spec, status, passed, total, failure=None, **extra):
    r = {"name": spec["name"], "status": status, "passed": passed, "total": total, "firstFailure": failure}
    r.update(extra)
    return r


def failure_of_exception(exc, run):
    message = "%s: %s" % (type(exc).__name__, exc) if str(exc) else type(exc).__name__
    if isinstance(exc, AssertionError) and not str(exc):
        tb = traceback.extract_tb(exc.__traceback__)
        frames = [f for f in tb if f.filename == "<test>"]
        if frames and frames[-1].line:
            message = "assertion failed: " + frames[-1].line.strip()
    f = {"input": None, "expected": None, "actual": None, "message": message[:2000]}
    if run.last_call is not None:
        name, args, kwargs, value = run.last_call
        f["input"] = short(args) if not kwargs else short((args, kwargs))
        f["actual"] = short(value)
    return f


def run_script(spec, run, names, record):
    limit = spec.get("limit", 10.0)
    start = time.monotonic()
    deadline = [start + limit]
    namespace = {"__name__": "__test__"}
    for n in names:
        namespace[n] = run.proxy(n, deadline)
    source = spec["code"] + "\n" + (spec.get("invoke") or "") + "\n"
    linecache.cache["<test>"] = (len(source), None, source.splitlines(True), "<test>")
    try:
        exec(compile(source, "<test>", "exec"), namespace)
    except NeedsInline:
        return run_inline(spec, run, deadline[0])
    except Timeout:
        return suite_result(spec, "timeout", 0, 1, {"input": None, "expected": None, "actual": None,
                                                    "message": "time limit of %.2fs exceeded" % limit}, kill=True)
    except Limit as exc:
        failure = failure_of_exception(exc, run)
        failure["message"] = "memory limit exceeded (MemoryError)" if exc.status == "memory" else str(exc)
        return suite_result(spec, exc.status, 0, 1, failure)
    except CandidateGone as exc:
        return suite_result(spec, "crashed", 0, 1, {"input": None, "expected": None, "actual": None, "message": str(exc)})
    except BaseException as exc:
        return suite_result(spec, "fail", 0, 1, failure_of_exception(exc, run))
    return suite_result(spec, "pass", 1, 1, None, elapsed=time.monotonic() - start)


def run_inline(spec, run, deadline):
    run.ch.send({"op": "inline", "code": spec["code"], "invoke": spec.get("invoke")})
    try:
        r = run.ch.recv(deadline)
    except Timeout:
        return suite_result(spec, "timeout", 0, 1, None, kill=True, inline=True)
    except CandidateGone as exc:
        return suite_result(spec, "crashed", 0, 1, {"input": None, "expected": None, "actual": None, "message": str(exc)}, inline=True)
    if r.get("ok"):
        return suite_result(spec, "pass", 1, 1, None, inline=True)
    status = "memory" if r.get("error") == "MemoryError" else "fail"
    return suite_result(spec, status, 0, 1, {"input": None, "expected": None, "actual": None,
                                             "message": "%s: %s" % (r.get("error"), r.get("message"))}, inline=True)


def run_io(spec, run, record):
    inputs = oracles.adapt_inputs(spec.get("inputAdapter"), json.loads(spec["inputs"]))
    total = len(inputs)
    if total == 0:
        return suite_result(spec, "pass", 0, 0, None, outputs="[]", times=[])
    limits = spec.get("limits") or [spec.get("limit", 10.0)] * total
    expected = None if record else [wire.decode(v) for v in json.loads(spec["expected"])]
    try:
        encoded = [wire.encode(list(inp), strict=True) for inp in inputs]
    except wire.Unencodable as exc:
        return suite_result(spec, "error", 0, total, {"input": None, "expected": None, "actual": None, "message": str(exc)})
    run.ch.send({"op": "batch", "name": spec["entry"], "inputs": encoded})
    state = oracles.CompareState(spec.get("atol") or 0)
    oracle = spec.get("oracle")
    passed = 0
    outputs, times = [], []
    first = None
    status = "pass"
    kill = False
    for i, inp in enumerate(inputs):
        t0 = time.monotonic()
        try:
            r = run.ch.recv(t0 + limits[i])
        except Timeout:
            status, kill = "timeout", True
            first = first or {"input": short(inp), "expected": None if record else short(expected[i]), "actual": None,
                              "message": "time limit of %.2fs exceeded" % limits[i]}
            break
        except CandidateGone as exc:
            status = "crashed"
            first = first or {"input": short(inp), "expected": None, "actual": None, "message": str(exc)}
            break
        if not r.get("ok"):
            err = r.get("error")
            this = "memory" if err == "MemoryError" else "output-limit" if err == "OutputLimit" else "fail"
            if first is None:
                first = {"input": short(inp), "expected": None if record else short(expected[i]), "actual": None,
                         "message": "%s: %s" % (err, r.get("message", ""))}
                status = this
            if record:
                outputs.append(None)
                times.append(r.get("dt", 0))
            continue
        if record:
            value = wire.decode(r["v"])
            if oracle == "output_not_none":
                value = value is not None
            outputs.append(wire.encode(value))
            times.append(r.get("dt", 0))
            passed += 1
            continue
        out = wire.decode(r["v"])
        ok, why = oracles.matches(out, expected[i], inp, state, oracle)
        if ok:
            passed += 1
        elif first is None:
            status = "fail"
            first = {"input": short(inp), "expected": short(expected[i]), "actual": short(out), "message": why}
    extra = {"kill": kill}
    if record:
        extra["outputs"] = wire.dumps(outputs)
        extra["times"] = times
    return suite_result(spec, status, passed, total, first, **extra)


def handle_run(msg):
    record = bool(msg.get("record"))
    try:
        ch = Channel(msg.get("connectSeconds", 10.0))
    except CandidateGone as exc:
        return {"op": "result", "load": {"ok": False, "status": "crashed", "message": str(exc)}, "suites": []}
    run = Run(ch)
    result = {"op": "result", "suites": []}
    try:
        ch.send({"op": "load", "program": msg["program"]})
        try:
            r = ch.recv(time.monotonic() + msg.get("loadSeconds", 10.0))
        except Timeout:
            result["load"] = {"ok": False, "status": "timeout", "message": "loading the program took too long"}
            result["kill"] = True
            return result
        except CandidateGone as exc:
            result["load"] = {"ok": False, "status": "crashed", "message": str(exc)}
            return result
        if not r.get("ok"):
            status = "memory" if r.get("error") == "MemoryError" else "error"
            result["load"] = {"ok": False, "status": status, "message": "%s: %s" % (r.get("error"), r.get("message"))}
            return result
        result["load"] = {"ok": True}
        names = [n for n in r.get("names", []) if isinstance(n, str)]
        for spec in msg["suites"]:
            if ch.gone or result.get("kill"):
                result["suites"].append(suite_result(spec, "skipped", 0, 0, None))
                continue
            res = run_io(spec, run, record) if spec["kind"] == "io" else run_script(spec, run, names, record)
            if res.pop("kill", False):
                result["kill"] = True
            result["suites"].append(res)
        try:
            ch.send({"op": "end"})
        except CandidateGone:
            pass
        return result
    finally:
        ch.close()


def main():
    buf = b""
    while True:
        while b"\n" not in buf:
            chunk = os.read(0, 1 << 20)
            if not chunk:
                return
            buf += chunk
        line, _, buf = buf.partition(b"\n")
        msg = json.loads(line)
        if msg.get("op") == "ping":
            out = {"op": "pong"}
        else:
            try:
                out = handle_run(msg)
            except BaseException as exc:
                out = {"op": "result", "internalError": "%s: %s" % (type(exc).__name__, exc)}
        os.write(PROTO, (json.dumps(out) + "\n").encode())


if __name__ == "__main__":
    main()
