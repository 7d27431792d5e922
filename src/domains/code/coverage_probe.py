
# --- Crucible's coverage probe, appended to a task's reference (never to a candidate) ----
# It runs in the sandbox like any program. __crucible_arcs__ calls the entry point with
# sys.settrace on, and returns the line-to-line arcs the reference's own functions took
# (its source ends at a line filled in below; a function's entry and exit are its first line,
# negated). __crucible_coverage_map__ reads the reference's source with ast: the lines a
# call can run and the decisions (if/elif/while/for) whose two outcomes arcs tell apart.
# sys.monitoring would be cheaper, but the sandbox's Python may be older than 3.12.


def __crucible_arcs__(*args, **kwargs):
    import sys

    arcs = set()

    def calls(frame, event, arg):
        code = frame.f_code
        if code.co_filename != "<candidate>" or code.co_firstlineno > __LAST_LINE__:
            return None
        state = [-code.co_firstlineno]

        def lines(frame, event, arg):
            if event == "line":
                arcs.add((state[0], frame.f_lineno))
                state[0] = frame.f_lineno
            elif event == "return":
                arcs.add((state[0], -code.co_firstlineno))
            return lines

        return lines

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        globals()[__ENTRY__](*args, **kwargs)
    finally:
        sys.settrace(previous)
    return sorted([a, b] for a, b in arcs)


def __crucible_coverage_map__():
    import ast

    tree = ast.parse(__SOURCE__)
    lines, branches = set(), []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # a docstring runs no line
        for node in (n for stmt in body for n in ast.walk(stmt)):
            if isinstance(node, ast.stmt):
                lines.add(node.lineno)
            if isinstance(node, (ast.If, ast.While, ast.For, ast.AsyncFor)) and node.body \
                    and node.body[0].lineno != node.lineno:
                branches.append([node.lineno, node.body[0].lineno])
    return {"lines": sorted(lines), "branches": sorted({tuple(b): b for b in branches}.values())}
