"""Tokenizes and syntax-checks Python sources for Crucible's mutation testing.

Reads one JSON object on stdin: {"tokenize": [source, ...], "compile": [source, ...]}.
Writes {"tokens": [...], "compiles": [...]}: per source either a list of
[type, text, start, end] (offsets in UTF-16 code units, as JavaScript strings count)
or {"error": message}; per compiled source true or false.

Nothing here executes the sources: tokenize reads text, compile() only builds bytecode.
"""
import io
import json
import sys
import token
import tokenize


def utf16_offsets(source):
    """Start offset of every line (1-based rows) and a column converter, in UTF-16 units."""
    lines = io.StringIO(source).readlines()
    starts = [0, 0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode("utf-16-le")) // 2)

    def offset(row, col):
        if row - 1 >= len(lines):
            return starts[min(row, len(starts) - 1)]
        prefix = lines[row - 1][:col]
        return starts[row] + len(prefix.encode("utf-16-le")) // 2

    return offset


def tokens_of(source):
    offset = utf16_offsets(source)
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            name = token.tok_name[tok.type]
            out.append([name, tok.string, offset(*tok.start), offset(*tok.end)])
    except (tokenize.TokenError, SyntaxError) as error:
        return {"error": str(error)}
    return out


def compiles(source):
    try:
        compile(source, "<mutant>", "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False


def main():
    request = json.load(sys.stdin)
    json.dump(
        {
            "tokens": [tokens_of(s) for s in request.get("tokenize", [])],
            "compiles": [compiles(s) for s in request.get("compile", [])],
        },
        sys.stdout,
    )


main()
