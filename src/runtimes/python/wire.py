"""Value encoding between the candidate process and the judge process.

Only exact built-in types are encoded; anything else becomes an opaque marker that
compares unequal to everything, so a candidate cannot smuggle an object whose
__eq__ lies into the process that judges it."""
import array
import base64
import builtins
import collections
import json
import json.decoder
import json.encoder
import json.scanner
import math
import os
import sys
import time
import types

MAX_DEPTH = 200
MAX_ITEMS = 10_000_000
# Lists of floats at least this long cross as packed doubles: repr() of every float is
# most of the cost of a large output (HumanEval+'s tri returns millions of them).
PACK_MIN_ITEMS = 256


_DICT_TYPES = (collections.defaultdict, collections.OrderedDict, collections.Counter)


class Opaque:
    __slots__ = ("type_name", "text")

    def __init__(self, type_name, text):
        self.type_name = type_name
        self.text = text

    def __eq__(self, other):
        return False

    def __ne__(self, other):
        return True

    __hash__ = object.__hash__

    def __repr__(self):
        return "<%s %s>" % (self.type_name, self.text)


class Unencodable(Exception):
    pass


class DecodeTimeout(Exception):
    """Decoding a value ran past the call's deadline: hashing can be made quadratic (60,000
    ints with one hash take minutes to put in a set), so the decode is timed like the call."""


class ItemsIterator:
    """An iterator that crossed as its items (a candidate's generator, drained where it ran).

    It crosses back the same way, so a test that passes a candidate's iterator on to the
    candidate sends data, never a reason to run the test beside the candidate."""

    __slots__ = ("items", "at")

    def __init__(self, items):
        self.items = items
        self.at = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.at >= len(self.items):
            raise StopIteration
        self.at += 1
        return self.items[self.at - 1]

    def take_rest(self):
        rest = self.items[self.at:]
        self.at = len(self.items)
        return rest


class OpaqueValue(TypeError):
    """A value the candidate returned that is not plain data, passed back to it by the
    test. Not Unencodable: that would run the test inline, in the candidate's process,
    where the candidate decides the outcome. This is an ordinary failure instead."""


def _float(x):
    if math.isnan(x):
        return {"$t": "float", "v": "nan"}
    if math.isinf(x):
        return {"$t": "float", "v": "inf" if x > 0 else "-inf"}
    return x


def encode(x, strict=False, depth=0):
    """Plain data to JSON-ready structure. strict=True raises on non-plain values
    (used for arguments the judge sends); otherwise they become opaque markers."""
    if depth > MAX_DEPTH:
        if strict:
            # Data, only too deep: running the test beside the candidate would not change that,
            # and a candidate could return a value just shallow enough to make the test's
            # wrapping of it too deep. A failure, as OpaqueValue is.
            raise OpaqueValue("a value nested more than %d deep cannot cross the sandbox boundary" % MAX_DEPTH)
        return {"$t": "opaque", "type": "deep", "v": "nesting too deep"}
    t = type(x)
    if x is None or t is bool or t is str:
        return x
    if t is int:
        # hex, not decimal: str() of a huge int is refused past 4300 digits and is quadratic
        return x if -(2**53) < x < 2**53 else {"$t": "int", "x": hex(x)}
    if t is float:
        return _float(x)
    d = depth + 1
    if t is list:
        if len(x) >= PACK_MIN_ITEMS:
            packed = _packed_floats(x)
            if packed is not None:
                return packed
        if _flat_plain(x):
            return x  # nothing to tag: JSON can carry it as it is (large outputs are mostly these)
        return [encode(v, strict, d) for v in x]
    if t is tuple:
        return {"$t": "tuple", "v": [encode(v, strict, d) for v in x]}
    if t is dict:
        return {"$t": "dict", "v": [[encode(k, strict, d), encode(v, strict, d)] for k, v in x.items()]}
    if t is set or t is frozenset:
        return {"$t": t.__name__, "v": [encode(v, strict, d) for v in x]}
    if t in _DICT_TYPES:  # defaultdict, OrderedDict, Counter compare like dicts
        return {"$t": "dict", "v": [[encode(k, strict, d), encode(v, strict, d)] for k, v in dict.items(x)]}
    if t is collections.deque:
        return {"$t": "deque", "v": [encode(v, strict, d) for v in x]}
    if t is ItemsIterator:
        # What crosses is what the receiver would read from it: the iterator here is used up.
        return {"$t": "iter", "v": [encode(v, strict, d) for v in x.take_rest()]}
    if isinstance(x, tuple) and hasattr(t, "_fields"):  # namedtuple equals the plain tuple
        return {"$t": "tuple", "v": [encode(v, strict, d) for v in tuple.__iter__(x)]}
    if not strict and (t is types.GeneratorType or (t.__module__ in ("builtins", "itertools") and hasattr(t, "__next__"))):
        # A returned generator/iterator is drained here, so the judge gets an iterator over
        # the same items (list(...) and next(...) work; equality with a list does not).
        items = []
        for v in x:
            if len(items) >= MAX_ITEMS:
                return {"$t": "opaque", "type": t.__name__, "v": "iterator longer than %d items" % MAX_ITEMS}
            items.append(encode(v, strict, d))
        return {"$t": "iter", "v": items}
    if t is bytes:
        return {"$t": "bytes", "v": base64.b64encode(x).decode()}
    if t is complex:
        return {"$t": "complex", "v": [_float(x.real), _float(x.imag)]}
    numpy = sys.modules.get("numpy")
    if numpy is not None and not strict:
        if isinstance(x, numpy.generic) and type(x).__module__ == "numpy":
            return encode(x.item(), strict, depth)
        if type(x) is numpy.ndarray:
            return encode(x.tolist(), strict, depth)
    if strict and t is Opaque:
        raise OpaqueValue("the candidate returned a %s, which is not plain data" % x.type_name)
    if strict:
        raise Unencodable("value of type %s cannot cross the sandbox boundary" % t.__name__)
    return {"$t": "opaque", "type": t.__name__, "v": _safe_repr(x)}


def _flat_plain(items):
    for v in items:
        t = type(v)
        if t is str or t is bool or v is None:
            continue
        if t is int:
            if -(2**53) < v < 2**53:
                continue
            return False
        if t is float and v - v == 0.0:  # finite
            continue
        return False
    return True


def _packed_floats(items):
    """{"$t":"f64","v":base64 of little-endian doubles,"ints":[positions of ints]} for a
    list of floats, possibly with some ints that doubles hold exactly; otherwise None.
    Every scan is a C loop: a Python loop over the items would cost what packing saves."""
    kinds = list(map(type, items))
    floats = kinds.count(float)
    ints = kinds.count(int)
    if floats == 0 or ints > floats or floats + ints != len(kinds):
        return None  # not numbers, or mostly ints: plain JSON says those as cheaply
    positions = []
    at = -1
    for _ in range(ints):
        at = kinds.index(int, at + 1)
        if not -(2**53) < items[at] < 2**53:
            return None  # a double would round it
        positions.append(at)
    doubles = array.array("d", items)
    if sys.byteorder == "big":
        doubles.byteswap()
    return {"$t": "f64", "ints": positions, "v": base64.b64encode(doubles).decode("ascii")}


def _unpacked_floats(x):
    doubles = array.array("d")
    doubles.frombytes(base64.b64decode(x["v"], validate=True))
    if sys.byteorder == "big":
        doubles.byteswap()
    items = doubles.tolist()
    for i in x.get("ints", ()):
        items[i] = int(items[i])
    return items


def _safe_repr(x):
    try:
        r = object.__repr__(x)
    except BaseException:
        r = "?"
    return r[:200]


# Decoding stops past this moment (time.monotonic()); None: no bound. Set by decode_by.
_deadline = None
# Containers that hash their items are filled in steps of this many, checking the clock between.
_HASHED_STEP = 1024


def _filled(container, add, items):
    """Adds items one by one (so the time of a hash flood is bounded), checking the deadline."""
    for i, item in enumerate(items):
        add(item)
        if i % _HASHED_STEP == 0 and _deadline is not None and time.monotonic() > _deadline:
            raise DecodeTimeout()
    return container


def decode_by(x, deadline):
    """decode(x), stopped with DecodeTimeout past `deadline` (time.monotonic())."""
    global _deadline
    _deadline = deadline
    try:
        return decode(x)
    finally:
        _deadline = None


def decode(x):
    t = type(x)
    if t is list:
        for v in x:
            tv = type(v)
            if tv is list or tv is dict:
                return [decode(v) for v in x]
        return x  # only scalars: tags live in dicts, so there is nothing to decode
    if t is dict:
        tag = x.get("$t")
        v = x.get("v")
        if tag is None:
            return {k: decode(val) for k, val in x.items()}
        if tag == "tuple":
            return tuple(decode(e) for e in v)
        if tag == "dict":
            if len(v) <= _HASHED_STEP:
                return {decode(k): decode(val) for k, val in v}
            out = {}
            return _filled(out, lambda kv: out.__setitem__(decode(kv[0]), decode(kv[1])), v)
        if tag == "set":
            if len(v) <= _HASHED_STEP:
                return set(decode(e) for e in v)
            out = set()
            return _filled(out, lambda e: out.add(decode(e)), v)
        if tag == "deque":
            return collections.deque(decode(e) for e in v)
        if tag == "iter":
            return ItemsIterator([decode(e) for e in v])
        if tag == "frozenset":
            if len(v) <= _HASHED_STEP:
                return frozenset(decode(e) for e in v)
            out = set()
            return frozenset(_filled(out, lambda e: out.add(decode(e)), v))
        if tag == "int":
            return int(x["x"], 16) if "x" in x else int(v)
        if tag == "float":
            return float(v)
        if tag == "f64":
            return _unpacked_floats(x)
        if tag == "bytes":
            return base64.b64decode(v)
        if tag == "complex":
            return complex(decode(v[0]), decode(v[1]))
        if tag == "opaque":
            return Opaque(x.get("type", "object"), v)
        raise ValueError("unknown wire tag %r" % tag)
    return x


# Built once: json.dumps with options builds a new encoder on every call, a cost paid per reply.
_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def dumps(x):
    return _ENCODER.encode(x)


def loads(s):
    return json.loads(s)


class LineReader:
    """Reads newline-terminated messages from a blocking fd. Chunks are kept in a list and
    joined once per line: scanning one growing buffer would be quadratic on long lines."""

    def __init__(self, fd):
        self.fd = fd
        self.partial = []
        self.lines = []

    def readline(self):
        """The next line without its newline, or None at end of input."""
        while not self.lines:
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                return None
            self.partial.append(chunk)
            if b"\n" in chunk:
                complete = b"".join(self.partial).split(b"\n")
                rest = complete.pop()
                self.partial = [rest] if rest else []
                complete.reverse()
                self.lines = complete
        return self.lines.pop()


def requests(reader, answer):
    """A worker's messages from `reader`, until it closes; pings are answered here with `answer`."""
    while True:
        line = reader.readline()
        if line is None:
            return
        msg = json.loads(line)
        if msg.get("op") == "ping":
            answer({"op": "pong"})
        else:
            yield msg


def pin_builtins(*modules):
    """Gives each module its own reference to every built-in as it is now.

    A right program may rebind `builtins.len` or `builtins.isinstance` for its own use;
    code of ours that runs in its process afterwards (this module, the candidate worker,
    json and base64, which both call) must still get the originals. A module's globals
    come before builtins in name lookup, so a copy there is enough. Names a module defines
    itself are left alone; so are dunder names, which the interpreter looks up elsewhere."""
    originals = {k: v for k, v in vars(builtins).items() if not k.startswith("__")}
    for module in modules:
        namespace = vars(module)
        for name, value in originals.items():
            namespace.setdefault(name, value)


pin_builtins(sys.modules[__name__], json, json.decoder, json.encoder, json.scanner, base64)
