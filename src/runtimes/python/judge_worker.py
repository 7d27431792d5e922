"""Trusted Python judge (runs inside its own sandbox, never next to a candidate).

It runs a task's test code against proxies whose calls go to the candidate process
over FIFOs, and compares outputs with the expected ones (EvalPlus semantics). Values
arrive as plain data decoded by wire.py, so nothing the candidate returns can lie
about equality, and nothing it does can patch this process."""
import ast
import builtins
import functools
import hashlib
import json
import linecache
import os
import re
import signal
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import wire  # noqa: E402
import oracles  # noqa: E402
from channel import Breach, CandidateError, CandidateGone, Channel, Limit, NeedsInline, Timeout  # noqa: E402

PROTO = os.dup(1)
_null = os.open(os.devnull, os.O_WRONLY)
os.dup2(_null, 1)  # test code that prints cannot corrupt the protocol
sys.setrecursionlimit(10000)


def short(x, n=500):
    try:
        r = repr(x)
    except BaseException:
        r = "<unprintable>"
    return r if len(r) <= n else r[: n - 3] + "..."


def raise_candidate_error(r, ch):
    name = r.get("error", "Exception")
    message = r.get("message", "")
    if not isinstance(name, str):
        name = "Exception"
    if name == "MemoryError":
        raise ch.note(Limit("memory", "MemoryError"))
    if name == "OutputLimit":
        raise ch.note(Limit("output-limit", message))
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
                # Only the test's own objects lead here; a candidate's opaque value passed
                # back raises wire.OpaqueValue (a failure), or it could choose to be run inline.
                raise NeedsInline()
            run.last_call = (name, args, kwargs, None)
            run.ch.send({"op": "call", "name": name, "args": enc_args, "kwargs": enc_kwargs}, deadline_ref[0])
            r = run.ch.recv(deadline_ref[0])
            if not r.get("ok"):
                raise_candidate_error(r, run.ch)
            value = run.ch.value(r, deadline_ref[0])
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


def visible_names(names, invoke):
    """The program's names the test code sees, as when both run in one namespace, except
    dunders and names that would replace a builtin the test relies on: a program defining
    `abs` or `isinstance` would otherwise answer `assert abs(candidate(x) - y) < 1e-6`
    itself. A builtin-named function is kept when the invocation names it (check(sum))."""
    called = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", invoke or ""))
    return [n for n in names if not n.startswith("__") and (n in called or not hasattr(builtins, n))]


@functools.lru_cache(maxsize=256)
def compiled_test(source):
    """A task's test code is the same for all its samples: compiled once (0.13 ms a sample)."""
    return compile(source, "<test>", "exec")


def run_script(spec, run, names, record):
    limit = spec.get("limit", 10.0)
    start = time.monotonic()
    deadline = [start + limit]
    namespace = {"__name__": "__test__"}
    run.ch.incident = None  # a memory error in an earlier suite is that suite's
    for n in visible_names(names, spec.get("invoke")):
        namespace[n] = run.proxy(n, deadline)
    run_helpers(spec.get("helpers"), namespace)
    source = spec["code"] + "\n" + (spec.get("invoke") or "") + "\n"
    linecache.cache["<test>"] = (len(source), None, source.splitlines(True), "<test>")
    try:
        exec(compiled_test(source), namespace)
    except NeedsInline:
        if run.ch.incident is None:
            return run_inline(spec, run, deadline[0])
        exc = run.ch.incident
    except (Timeout, Limit, CandidateGone, Breach) as e:
        exc = e
    except BaseException as e:
        exc = run.ch.incident or e
        if exc is e:
            return suite_result(spec, "fail", 0, 1, failure_of_exception(exc, run))
    else:
        # Test code may swallow what stopped the candidate (a bare except): still not a pass.
        exc = run.ch.incident
        if exc is None:
            return suite_result(spec, "pass", 1, 1, None, elapsed=time.monotonic() - start)
    return incident_result(spec, run, exc, limit)


def incident_result(spec, run, exc, limit, **extra):
    blank = {"input": None, "expected": None, "actual": None, "message": str(exc)}
    if isinstance(exc, Timeout):
        blank["message"] = "time limit of %.2fs exceeded" % limit
        return suite_result(spec, "timeout", 0, 1, blank, kill=True, **extra)
    if isinstance(exc, Limit):
        failure = failure_of_exception(exc, run)
        failure["message"] = "memory limit exceeded (MemoryError)" if exc.status == "memory" else str(exc)
        return suite_result(spec, exc.status, 0, 1, failure, **extra)
    if isinstance(exc, Breach):
        return suite_result(spec, exc.status, 0, 1, blank, kill=True, **extra)
    return suite_result(spec, "crashed", 0, 1, blank, **extra)


@functools.lru_cache(maxsize=256)
def compiled_helpers(code, entry):
    """The prompt without its stub of the entry point, compiled (None if it does not parse).
    A prompt ends in the entry point's docstring, so it parses as it is, or with a body added."""
    for source in (code, code + "\n    pass\n"):
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        stub = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        tree.body = [n for n in tree.body if not (isinstance(n, stub) and n.name == entry)]
        return compile(tree, "<prompt>", "exec")
    return None


def run_helpers(helpers, namespace):
    """The prompt's helper definitions (poly, encode_cyclic), run in the test's namespace after
    the candidate's names: a test that calls a helper the prompt defines gets the prompt's,
    never a candidate's redefinition (a poly that returns 0 would pass any find_zero). A
    prompt whose helpers do not run here leaves the candidate's names as they are."""
    if not isinstance(helpers, dict) or not isinstance(helpers.get("code"), str):
        return
    code = compiled_helpers(helpers["code"], helpers.get("entry"))
    if code is None:
        return
    try:
        exec(code, namespace)
    except Exception:
        pass


def run_inline(spec, run, deadline):
    # The test runs in the candidate's process and the candidate reports the outcome:
    # only the test's own unencodable arguments lead here (see proxy), never a candidate.
    try:
        run.ch.send({"op": "inline", "code": spec["code"], "invoke": spec.get("invoke")}, deadline)
        r = run.ch.recv(deadline)
    except (Timeout, CandidateGone, Breach) as exc:
        return incident_result(spec, run, exc, spec.get("limit", 10.0), inline=True)
    if r.get("ok"):
        return suite_result(spec, "pass", 1, 1, None, inline=True)
    status = "memory" if r.get("error") == "MemoryError" else "fail"
    return suite_result(spec, status, 0, 1, {"input": None, "expected": None, "actual": None,
                                             "message": "%s: %s" % (r.get("error"), r.get("message"))}, inline=True)


# Expected outputs larger than this are kept as a SHA-256 digest and compared byte for byte.
LARGE_OUTPUT_BYTES = 64 << 20
OK_PREFIX = b'{"ok":true,"dt":'
VALUE_KEY = b',"v":'


def transfer_allowance(expected_item):
    """Seconds to add to a call's limit for moving its output between processes: the
    reference was timed on the call alone (as EvalPlus does), and large outputs
    (hundreds of MB in HumanEval+/MBPP+) take real time to encode and copy."""
    if expected_item is None:
        return 0.0
    size = expected_item["bytes"] if isinstance(expected_item, dict) else len(expected_item)
    return size / 20e6


FLOAT_MARKS = re.compile(rb"[.eE]")
NOT_A_NUMBER_START = re.compile(rb"[^-0-9{]")


def may_be_floats(raw):
    """False when the encoded output is surely not a float or a list of floats (what
    oracles.is_floats asks), judged from its first item's bytes: decoding a large output
    on every call only to learn that it is a string or starts with an int is most of the
    judge's work on HumanEval+'s heaviest tasks."""
    start = 1 if raw[:1] == b"[" else 0
    if NOT_A_NUMBER_START.match(raw, start):
        return False  # a string, a nested list, true/false/null, or an empty list
    if raw[start:start + 1] == b"{":
        return True  # a tag (nan, inf, a packed float list): decode to know
    end = len(raw)
    for stop in (b",", b"]"):
        at = raw.find(stop, start)
        if 0 <= at < end:
            end = at
    return FLOAT_MARKS.search(raw, start, end) is not None


def oracle_allows_fast_path(oracle):
    # find_zero accepts any root, judged by |poly(x)|; equality with the reference's root
    # would also pass, but we keep EvalPlus's exact check for it.
    return oracle != "find_zero"


def run_io(spec, run, record):
    # Dataset inputs are plain JSON; generated ones may carry wire tags (tuples, sets, dicts with any keys).
    inputs = oracles.adapt_inputs(spec.get("inputAdapter"), wire.decode(json.loads(spec["inputs"])))
    total = len(inputs)
    if total == 0:
        return suite_result(spec, "pass", 0, 0, None, outputs="[]", times=[])
    limits = spec.get("limits") or [spec.get("limit", 10.0)] * total
    oracle = spec.get("oracle")
    # Expected outputs travel as the reference's own encoded bytes (one JSON string each):
    # an identical reply passes without being parsed; others are decoded on demand.
    expected_raw = None if record else [item.encode() if isinstance(item, str) else item for item in spec["expected"]]
    decoded = {}

    def expected(i):
        if i not in decoded:
            item = expected_raw[i]
            decoded[i] = (wire.Opaque("output", "of %d bytes, kept as its SHA-256" % item["bytes"]) if isinstance(item, dict)
                          else wire.decode(json.loads(item)))
        return decoded[i]

    try:
        encoded = [wire.encode(list(inp), strict=True) for inp in inputs]
    except wire.Unencodable as exc:
        return suite_result(spec, "error", 0, total, {"input": None, "expected": None, "actual": None, "message": str(exc)})
    try:
        # The candidate reads the whole batch before its first call; allow for a large one.
        run.ch.send({"op": "batch", "name": spec["entry"], "inputs": encoded}, time.monotonic() + 30.0)
    except (Timeout, CandidateGone) as exc:
        return suite_result(spec, "crashed", 0, total, {"input": None, "expected": None, "actual": None,
                                                         "message": "the candidate stopped reading its inputs"},
                            kill=isinstance(exc, Timeout))
    state = oracles.CompareState(spec.get("atol") or 0)
    fast = not record and oracle_allows_fast_path(oracle)
    passed = 0
    outputs, times = [], []
    first = None
    first_at = None
    status = "pass"
    kill = False
    for i, inp in enumerate(inputs):
        t0 = time.monotonic()
        deadline = t0 + limits[i] + transfer_allowance(None if record else expected_raw[i])
        try:
            line = run.ch.recv_raw(deadline)
        except Timeout:
            status, kill = "timeout", True
            first_at = i if first is None else first_at
            first = first or {"input": short(inp), "expected": None if record else short(expected(i)), "actual": None,
                              "message": "time limit of %.2fs exceeded" % limits[i]}
            break
        except CandidateGone as exc:
            status = "crashed"
            first_at = i if first is None else first_at
            first = first or {"input": short(inp), "expected": None, "actual": None, "message": str(exc)}
            break
        at = line.find(VALUE_KEY) if line.startswith(OK_PREFIX) else -1
        if at > 0:
            raw = line[at + len(VALUE_KEY):-1]
            if record:
                head = json.loads(line[:at] + b"}")
                if oracle == "output_not_none":
                    outputs.append(wire.dumps(wire.decode(json.loads(raw)) is not None))
                elif len(raw) > LARGE_OUTPUT_BYTES:
                    outputs.append({"sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw)})
                else:
                    outputs.append(raw.decode())
                times.append(head.get("dt", 0))
                passed += 1
                continue
            item = expected_raw[i]
            if isinstance(item, dict):
                # Too large to keep (MBPP+ has a 957 MB output): exact bytes, by digest.
                if len(raw) == item["bytes"] and hashlib.sha256(raw).hexdigest() == item["sha256"]:
                    passed += 1
                elif first is None:
                    status, first_at = "fail", i
                    first = {"input": short(inp), "expected": short(expected(i)), "actual": "<%d bytes>" % len(raw),
                             "message": "output differs from the expected output (compared by SHA-256)"}
                continue
            if fast and raw == item:
                passed += 1  # byte-identical to the reference's encoded output
                if state.atol == 0 and may_be_floats(item) and oracles.is_floats(expected(i)):
                    state.atol = 1e-6  # keep EvalPlus's sticky tolerance in step
                continue
        try:
            # A candidate can write its own lines to the FIFO: whatever does not parse or
            # decode is a broken protocol (error, candidate stopped), never a judge failure.
            r = run.ch.parse(line)
            out = run.ch.value(r, deadline) if r.get("ok") else None
        except Timeout:
            status, kill = "timeout", True
            first_at = i if first is None else first_at
            first = first or {"input": short(inp), "expected": short(expected(i)), "actual": None,
                              "message": "time limit of %.2fs exceeded (decoding the output)" % limits[i]}
            break
        except Breach as exc:
            status, kill = exc.status, True
            first_at = i if first is None else first_at
            first = {"input": short(inp), "expected": None, "actual": None, "message": str(exc)}
            break
        if not r.get("ok"):
            err = r.get("error")
            this = "memory" if err == "MemoryError" else "output-limit" if err == "OutputLimit" else "fail"
            if first is None:
                first = {"input": short(inp), "expected": None if record else short(expected(i)), "actual": None,
                         "message": "%s: %s" % (err, r.get("message", ""))}
                status, first_at = this, i
            if record:
                # An exception is behaviour too (it tells candidates apart): marked, never a value.
                outputs.append({"$raised": str(err)})
                times.append(r.get("dt", 0))
            continue
        try:
            ok, why = oracles.matches(out, expected(i), inp, state, oracle)
        except Exception as exc:  # e.g. RecursionError comparing a deeply nested value
            ok, why = False, "comparison failed: %s" % type(exc).__name__
        if ok:
            passed += 1
        elif first is None:
            status, first_at = "fail", i
            first = {"input": short(inp), "expected": short(expected(i)), "actual": short(out), "message": why}
    extra = {"kill": kill}
    if first is not None:
        extra["failedAt"] = first_at
    if record:
        extra["outputs"] = json.dumps(outputs)
        extra["times"] = times
    return suite_result(spec, status, passed, total, first, **extra)


def handle_run(msg):
    record = bool(msg.get("record"))
    try:
        # The candidate's own cap on one encoded value, plus room for the reply around it.
        ch = Channel(msg.get("connectSeconds", 10.0), int(msg.get("replyBytes", 64 << 20)) + (1 << 20))
    except CandidateGone as exc:
        return {"op": "result", "load": {"ok": False, "status": "crashed", "message": str(exc)}, "suites": []}
    run = Run(ch)
    result = {"op": "result", "suites": []}
    try:
        try:
            load_deadline = time.monotonic() + msg.get("loadSeconds", 10.0)
            ch.send({"op": "load", "program": msg["program"]}, load_deadline)
            r = ch.recv(load_deadline)
            names = r.get("names", []) if r.get("ok") else []
            if not isinstance(names, list):
                raise ch.breach("error", "the candidate wrote a malformed reply")
        except Timeout:
            result["load"] = {"ok": False, "status": "timeout", "message": "loading the program took too long"}
            result["kill"] = True
            return result
        except CandidateGone as exc:
            result["load"] = {"ok": False, "status": "crashed", "message": str(exc)}
            return result
        except Breach as exc:
            result["load"] = {"ok": False, "status": exc.status, "message": str(exc)}
            result["kill"] = True
            return result
        if not r.get("ok"):
            status = "memory" if r.get("error") == "MemoryError" else "error"
            result["load"] = {"ok": False, "status": status, "message": "%s: %s" % (r.get("error"), r.get("message"))}
            return result
        result["load"] = {"ok": True}
        names = [n for n in names if isinstance(n, str)]
        for spec, expected in zip(msg["suites"], msg["expected"]):
            spec["expected"] = expected
            if ch.gone or result.get("kill"):
                result["suites"].append(suite_result(spec, "skipped", 0, 0, None))
                continue
            res = run_io(spec, run, record) if spec["kind"] == "io" else run_script(spec, run, names, record)
            if res.pop("kill", False):
                result["kill"] = True
            result["suites"].append(res)
        if not ch.gone:
            try:
                ch.send({"op": "end"}, time.monotonic() + 1.0)
            except CandidateGone:
                pass
            except Timeout:
                result["kill"] = True  # it stopped reading: it would never end by itself
        elif ch.incident is not None and not isinstance(ch.incident, CandidateGone):
            result["kill"] = True  # a breach: the candidate is alive but not listened to
        return result
    finally:
        ch.close()


def answer(obj):
    os.write(PROTO, (json.dumps(obj) + "\n").encode())


def judged(msg):
    """handle_run's result, or the judge's own failure as a result Crucible reads as no verdict."""
    try:
        return handle_run(msg)
    except BaseException as exc:
        return {"op": "result", "internalError": "%s: %s" % (type(exc).__name__, exc)}


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def main():
    if "--fork-per-run" in sys.argv[1:]:
        return fork_per_run()
    for msg in wire.requests(wire.LineReader(0), answer):
        answer(judged(msg))


# --- test code Crucible does not trust (a request's): a process of its own per run --------
# This process never reads a request, never runs test code and keeps nothing of a run in its
# memory: for each run it forks a child, which reads the request itself, installs the
# candidates' seccomp filter, judges and writes its result to a pipe of its own. The result
# reaches Crucible only after the child is dead (killed, to be sure), copied through one
# buffer that is emptied again (MADV_DONTNEED), so the next child finds nothing of it, and
# the sandbox's /tmp is wiped between runs. A child can forge only its own run's result.
RESULT_CAP = 256 << 20
MALFORMED = b'{"op":"result","internalError":"the judge of this run wrote no single result line"}\n'


def fork_per_run():
    import ctypes
    import mmap
    import candidate_worker as cw

    ctypes.CDLL(None, use_errno=True).prctl(cw.PR_SET_DUMPABLE, 0, 0, 0, 0)  # /proc/1/{mem,fd} closed to children
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # PID 1 gets from inside only the signals it handles
    buf = mmap.mmap(-1, RESULT_CAP, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    while True:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            judge_one_run(w, cw)
        os.close(w)
        n = 0
        view = memoryview(buf)
        while n < RESULT_CAP:
            got = os.readv(r, [view[n:]])
            if got == 0:
                break
            n += got
        os.close(r)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(pid, 0)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3:
            return  # Crucible closed stdin
        single = n > 0 and n < RESULT_CAP and buf.find(b"\n", 0, n) == n - 1
        write_all(PROTO, view[:n] if single else MALFORMED)
        view.release()
        buf.madvise(mmap.MADV_DONTNEED)
        cw.wipe_scratch()


def judge_one_run(w, cw):
    """The child: one line from stdin (a ping or a run), answered on `w`; it never returns."""
    try:
        os.close(PROTO)
        line = wire.LineReader(0).readline()
        os.close(0)
        if line is None:
            os._exit(3)
        msg = json.loads(line)
        if msg.get("op") == "ping":
            out = {"op": "pong"}
        else:
            cw.install_seccomp(cw.load_seccomp(msg.get("seccomp")))
            out = judged(msg)
        write_all(w, (json.dumps(out) + "\n").encode())
    finally:
        os._exit(0)


if __name__ == "__main__":
    main()
