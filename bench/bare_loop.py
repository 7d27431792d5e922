"""Baseline for bench:eval: every HumanEval+ reference on every base and plus input,
in one warm interpreter with no isolation and no comparison. Prints seconds and calls."""
import gzip
import json
import sys
import time

path = sys.argv[1]
tasks = [json.loads(line) for line in gzip.open(path, "rt")]
sys.setrecursionlimit(10000)
calls = 0
start = time.perf_counter()
for task in tasks:
    namespace = {}
    exec(task["prompt"] + task["canonical_solution"], namespace)
    fn = namespace[task["entry_point"]]
    for inputs in (task["base_input"], task["plus_input"]):
        for args in inputs:
            fn(*args)
            calls += 1
print(json.dumps({"seconds": time.perf_counter() - start, "calls": calls}))
