"""Value encoding between the candidate process and the judge process.

Only exact built-in types are encoded; anything else becomes an opaque marker that
compares unequal to everything, so a candidate cannot smuggle an object whose
__eq__ lies into the process that judges it."""
import base64
import json
import math
import sys

MAX_DEPTH = 200


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
            raise Unencodable("nesting too deep")
        return {"$t": "opaque", "type": "deep", "v": "nesting too deep"}
    t = type(x)
    if x is None or t is bool or t is str:
        return x
    if t is int:
        return x if -(2**53) < x < 2**53 else {"$t": "int", "v": str(x)}
    if t is float:
        return _float(x)
    d = depth + 1
    if t is list:
        return [encode(v, strict, d) for v in x]
    if t is tuple:
        return {"$t": "tuple", "v": [encode(v, strict, d) for v in x]}
    if t is dict:
        return {"$t": "dict", "v": [[encode(k, strict, d), encode(v, strict, d)] for k, v in x.items()]}
    if t is set or t is frozenset:
        return {"$t": t.__name__, "v": [encode(v, strict, d) for v in x]}
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
    if strict:
        raise Unencodable("value of type %s cannot cross the sandbox boundary" % t.__name__)
    return {"$t": "opaque", "type": t.__name__, "v": _safe_repr(x)}


def _safe_repr(x):
    try:
        r = object.__repr__(x)
    except BaseException:
        r = "?"
    return r[:200]


def decode(x):
    t = type(x)
    if t is list:
        return [decode(v) for v in x]
    if t is dict:
        tag = x.get("$t")
        v = x.get("v")
        if tag is None:
            return {k: decode(val) for k, val in x.items()}
        if tag == "tuple":
            return tuple(decode(e) for e in v)
        if tag == "dict":
            return {decode(k): decode(val) for k, val in v}
        if tag == "set":
            return set(decode(e) for e in v)
        if tag == "frozenset":
            return frozenset(decode(e) for e in v)
        if tag == "int":
            return int(v)
        if tag == "float":
            return float(v)
        if tag == "bytes":
            return base64.b64decode(v)
        if tag == "complex":
            return complex(decode(v[0]), decode(v[1]))
        if tag == "opaque":
            return Opaque(x.get("type", "object"), v)
        raise ValueError("unknown wire tag %r" % tag)
    return x


def dumps(x):
    return json.dumps(x, separators=(",", ":"), allow_nan=False)


def loads(s):
    return json.loads(s)
