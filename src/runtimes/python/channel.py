"""The judge's end of the two FIFOs to a candidate, and the ways a call can end other
than with a value. Every wait has a deadline; everything read is bounded."""
import collections
import json
import os
import select
import signal
import time

import wire

IPC_DIR = os.environ.get("CRUCIBLE_IPC", "/ipc")


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


class Breach(BaseException):
    """The candidate broke the protocol (it can write to its end of the FIFO itself): a
    reply that is not JSON, not an object, not a value, or too large. The channel is no
    longer trustworthy; the candidate is stopped."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class CandidateError(Exception):
    pass


def _never_connected(signum, frame):
    raise CandidateGone("candidate process never connected")


def connect_writer(path, seconds):
    """Opens the FIFO for writing, which blocks until the candidate opens it for reading: the
    judge wakes the moment it does. (Polling a non-blocking open with backoff woke up to
    0.8 ms late, about 1 ms of each candidate's time, measured.) An alarm bounds the wait."""
    signal.signal(signal.SIGALRM, _never_connected)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return os.open(path, os.O_WRONLY)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class Channel:
    def __init__(self, connect_seconds, max_reply_bytes):
        # Largest reply line accepted: the candidate worker turns a larger return value into
        # an OutputLimit error, so only a candidate writing to the FIFO itself sends more;
        # unbounded, the judge would buffer it until it ran out of memory.
        self.max_reply_bytes = max_reply_bytes
        self.rfd = os.open(os.path.join(IPC_DIR, "c2j"), os.O_RDONLY | os.O_NONBLOCK)
        try:
            self.wfd = connect_writer(os.path.join(IPC_DIR, "j2c"), connect_seconds)
        except CandidateGone:
            os.close(self.rfd)
            raise
        os.set_blocking(self.wfd, False)
        # wfd stays non-blocking: a candidate that stops reading must not block the judge
        # past its deadlines (send waits for room with select, like recv waits for data).
        self.partial = []
        self.partial_bytes = 0
        self.lines = collections.deque()
        self.gone = False
        # The first Timeout/CandidateGone/Breach/Limit met, in case test code swallows it.
        self.incident = None

    def note(self, exc):
        if self.incident is None:
            self.incident = exc
        return exc

    def send(self, obj, deadline):
        data = (wire.dumps(obj) + "\n").encode()
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.wfd, view):]
                continue
            except BlockingIOError:
                pass
            except OSError:
                self.gone = True
                raise self.note(CandidateGone("candidate process is gone"))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self.note(Timeout())
            select.select([], [self.wfd], [], remaining)

    def recv(self, deadline):
        return self.parse(self.recv_raw(deadline))

    def recv_raw(self, deadline):
        while not self.lines:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self.note(Timeout())
            ready, _, _ = select.select([self.rfd], [], [], remaining)
            if not ready:
                raise self.note(Timeout())
            try:
                chunk = os.read(self.rfd, 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                self.gone = True
                raise self.note(CandidateGone("candidate process ended"))
            # Keep partial chunks in a list and split only chunks that end lines: a huge
            # reply arrives in many reads, and re-scanning one growing buffer is quadratic.
            if b"\n" not in chunk:
                self.partial.append(chunk)
                self.partial_bytes += len(chunk)
                if self.partial_bytes > self.max_reply_bytes:
                    raise self.breach("output-limit", "the candidate wrote a reply larger than %d bytes" % self.max_reply_bytes)
                continue
            self.partial.append(chunk)
            *complete, rest = b"".join(self.partial).split(b"\n")
            self.partial = [rest] if rest else []
            self.partial_bytes = len(rest)
            self.lines.extend(complete)
        return self.lines.popleft()

    def breach(self, status, message):
        self.gone = True
        return self.note(Breach(status, message))

    def parse(self, line):
        if len(line) > self.max_reply_bytes:
            raise self.breach("output-limit", "the candidate wrote a reply larger than %d bytes" % self.max_reply_bytes)
        try:
            r = json.loads(line)
        except Exception:  # ValueError, RecursionError (deep nesting), MemoryError
            raise self.breach("error", "the candidate wrote a malformed reply")
        if type(r) is not dict:
            raise self.breach("error", "the candidate wrote a malformed reply")
        return r

    def value(self, r, deadline):
        """The value in a call reply, decoded by the call's deadline (past it, the call timed
        out). Whatever fails to decode (unknown tags, bad ints, unhashable keys, missing
        fields) is a forged reply, not a judge failure."""
        try:
            return wire.decode_by(r["v"], deadline)
        except wire.DecodeTimeout:
            raise self.note(Timeout())
        except Exception:
            raise self.breach("error", "the candidate wrote a malformed value")

    def close(self):
        for fd in (self.rfd, self.wfd):
            try:
                os.close(fd)
            except OSError:
                pass
