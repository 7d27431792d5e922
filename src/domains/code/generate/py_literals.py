"""Reads Python literals (a JSON list of source strings on stdin; with --serve, one request per line) and prints each as the
JSON text of its wire encoding (so 1.0 stays a float), or null when it is not a literal. ast.literal_eval evaluates
nothing but literals, so prompt text is never executed."""
import ast
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "runtimes", "python"))
import wire  # noqa: E402

wire.PACK_MIN_ITEMS = float("inf")  # literals stay plain lists: they seed input mutation


def read(text):
    try:
        return wire.dumps(wire.encode(ast.literal_eval(text), strict=True))
    except Exception:
        return None


if "--serve" in sys.argv:
    # Long-lived: {"texts": [...]} per line in, {"read": [...]} per line out.
    for line in sys.stdin:
        print(json.dumps({"read": [read(t) for t in json.loads(line)["texts"]]}), flush=True)
else:
    print(json.dumps([read(t) for t in json.load(sys.stdin)]))
