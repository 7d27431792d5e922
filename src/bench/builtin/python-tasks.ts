/**
 * Built-in Python tasks. Written for Crucible (not taken from any dataset): each has a
 * HumanEval-style prompt, a reference, a weak-ish `check` suite ("base") and an io suite
 * ("plus") whose expected outputs come from running the reference, with edge cases.
 */
import { code, defineTask, type BuiltinSpec, type BuiltinTask } from './define.js';

/** HumanEval's layout: `def check(candidate):` with the assertions, then `check(entry)`. */
const pythonTask = (spec: BuiltinSpec): BuiltinTask =>
  defineTask('python', spec, { code: `def check(candidate):\n${spec.base}`, invoke: `check(${spec.entryPoint})` });

/** A small deterministic generator so large inputs are the same on every machine. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function randomInts(seed: number, count: number, lo: number, hi: number): number[] {
  const next = lcg(seed);
  return Array.from({ length: count }, () => lo + Math.floor(next() * (hi - lo + 1)));
}

function randomString(seed: number, length: number, alphabet: string): string {
  const next = lcg(seed);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

// ---------------------------------------------------------------------------------------

const runLengthEncode = pythonTask({
  slug: 'run-length-encode',
  entryPoint: 'run_length_encode',
  prompt: code`def run_length_encode(s: str) -> str:
    """Compress a string by replacing every run of a repeated character with the
    character followed by the length of the run. Every run gets a count, even a
    run of one, and counts may have several digits.

    >>> run_length_encode("aaabcc")
    'a3b1c2'
    >>> run_length_encode("zzzzzzzzzzzz")
    'z12'
    """
`,
  body: code`    if not s:
        return ""
    out = []
    current, count = s[0], 1
    for ch in s[1:]:
        if ch == current:
            count += 1
        else:
            out.append(f"{current}{count}")
            current, count = ch, 1
    out.append(f"{current}{count}")
    return "".join(out)
`,
  base: code`    assert candidate("aaabcc") == "a3b1c2"
    assert candidate("xyzz") == "x1y1z2"
    assert candidate("zzzzzzzzzzzz") == "z12"
    assert candidate("aabbaa") == "a2b2a2"
`,
  plus: [[''], ['a'], ['abc'], ['aab'], ['aaabcc'], ['  !!'], ['a'.repeat(105) + 'b'], [randomString(11, 300, 'ab')], [randomString(12, 200, 'abc ')], ['AaAa']],
  candidates: [
    {
      label: 'groupby',
      expected: 'pass',
      why: 'itertools.groupby yields exactly the runs; equivalent to the reference.',
      program: code`from itertools import groupby


def run_length_encode(s: str) -> str:
    return "".join(f"{ch}{len(list(group))}" for ch, group in groupby(s))
`,
    },
    {
      label: 'drops-final-single',
      expected: 'fail',
      why: 'The outer loop stops one character early, so a run of length one at the very end is lost ("aab" gives "a2"). The base strings all end with a longer run.',
      program: code`def run_length_encode(s: str) -> str:
    out = ""
    i = 0
    while i < len(s) - 1:
        j = i
        while j < len(s) - 1 and s[j] == s[j + 1]:
            j += 1
        out += s[i] + str(j - i + 1)
        i = j + 1
    return out
`,
    },
    {
      label: 'empty-input-crash',
      expected: 'fail',
      why: 'Reads s[0] without checking for the empty string: IndexError on "" (only the plus suite tries it).',
      program: code`def run_length_encode(s: str) -> str:
    parts = []
    current, count = s[0], 0
    for ch in s:
        if ch == current:
            count += 1
        else:
            parts.append(current + str(count))
            current, count = ch, 1
    parts.append(current + str(count))
    return "".join(parts)
`,
    },
  ],
});

const mergeIntervals = pythonTask({
  slug: 'merge-intervals',
  entryPoint: 'merge_intervals',
  prompt: code`def merge_intervals(intervals: list[list[int]]) -> list[list[int]]:
    """Merge overlapping closed intervals [start, end] and return the result
    sorted by start. Intervals that only touch, such as [1, 3] and [3, 5], also
    merge. The input may be in any order and may be empty.

    >>> merge_intervals([[1, 3], [2, 6], [8, 10]])
    [[1, 6], [8, 10]]
    >>> merge_intervals([[5, 7], [1, 2]])
    [[1, 2], [5, 7]]
    """
`,
  body: code`    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged
`,
  base: code`    assert candidate([[1, 3], [2, 6], [8, 10]]) == [[1, 6], [8, 10]]
    assert candidate([[1, 4], [6, 8]]) == [[1, 4], [6, 8]]
    assert candidate([[1, 10], [2, 3], [4, 5]]) == [[1, 10]]
    assert candidate([[0, 0]]) == [[0, 0]]
`,
  plus: [
    [[]],
    [[[1, 3], [3, 5]]],
    [[[5, 7], [1, 2]]],
    [[[8, 10], [1, 3], [2, 6]]],
    [[[1, 2], [2, 3], [3, 4]]],
    [[[-5, -1], [-3, 2], [10, 10]]],
    [[[4, 4], [4, 4]]],
    [[[1, 10], [2, 3], [11, 12]]],
    [Array.from({ length: 60 }, (_, i) => [(i * 37) % 100, ((i * 37) % 100) + (i % 4)])],
  ],
  candidates: [
    {
      label: 'sorted-by-key',
      expected: 'pass',
      why: 'Same sweep written with an explicit sort key and a separate last-end variable.',
      program: code`def merge_intervals(intervals):
    result = []
    for lo, hi in sorted(intervals, key=lambda iv: (iv[0], iv[1])):
        if not result or lo > result[-1][1]:
            result.append([lo, hi])
        elif hi > result[-1][1]:
            result[-1][1] = hi
    return result
`,
    },
    {
      label: 'touching-not-merged',
      expected: 'fail',
      why: 'Uses < where the spec needs <=, so intervals that only touch ([1, 3] and [3, 5]) stay apart. No base test has touching intervals.',
      program: code`def merge_intervals(intervals):
    merged = []
    for start, end in sorted(intervals):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged
`,
    },
    {
      label: 'assumes-sorted',
      expected: 'fail',
      why: 'Never sorts: right whenever the input is already ordered by start, as every base test is.',
      program: code`def merge_intervals(intervals):
    merged = []
    for start, end in intervals:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged
`,
    },
    {
      label: 'forgets-containment',
      expected: 'fail',
      why: 'Overwrites the end instead of taking the max, so [1, 10] swallowed by [2, 3] shrinks; the base suite catches this one.',
      program: code`def merge_intervals(intervals):
    merged = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = end
        else:
            merged.append([start, end])
    return merged
`,
    },
  ],
});

const romanNumerals = pythonTask({
  slug: 'roman-numerals',
  entryPoint: 'to_roman',
  prompt: code`def to_roman(n: int) -> str:
    """Write n (1 <= n <= 3999) as a Roman numeral in standard form, using the
    subtractive pairs IV, IX, XL, XC, CD and CM.

    >>> to_roman(14)
    'XIV'
    >>> to_roman(1994)
    'MCMXCIV'
    """
`,
  body: code`    table = [
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
        (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
        (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ]
    out = []
    for value, symbol in table:
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)
`,
  base: code`    assert candidate(3) == "III"
    assert candidate(4) == "IV"
    assert candidate(9) == "IX"
    assert candidate(14) == "XIV"
    assert candidate(58) == "LVIII"
    assert candidate(90) == "XC"
    assert candidate(2024) == "MMXXIV"
`,
  plus: [
    ...Array.from({ length: 120 }, (_, i) => [i + 1]),
    ...[399, 400, 444, 490, 499, 900, 949, 999, 1444, 1994, 2499, 3444, 3888, 3999].map((n) => [n]),
  ],
  candidates: [
    {
      label: 'digit-tables',
      expected: 'pass',
      why: 'Looks up each decimal digit in per-place tables; equivalent to the greedy reference.',
      program: code`def to_roman(n: int) -> str:
    thousands = ["", "M", "MM", "MMM"]
    hundreds = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"]
    tens = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"]
    ones = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    return thousands[n // 1000] + hundreds[n // 100 % 10] + tens[n // 10 % 10] + ones[n % 10]
`,
    },
    {
      label: 'missing-cd-cm',
      expected: 'fail',
      why: 'The table lacks 400 (CD) and 900 (CM), so 400 becomes CCCC and 900 DCCCC; the base values never need them.',
      program: code`def to_roman(n: int) -> str:
    table = [(1000, "M"), (500, "D"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
             (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    result = ""
    for value, symbol in table:
        while n >= value:
            result += symbol
            n -= value
    return result
`,
    },
    {
      label: 'syntax-error',
      expected: 'error',
      why: 'A missing colon after the for statement: the program does not load.',
      program: code`def to_roman(n: int) -> str:
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    result = ""
    for value, symbol in table
        while n >= value:
            result += symbol
            n -= value
    return result
`,
    },
  ],
});

const balancedBrackets = pythonTask({
  slug: 'balanced-brackets',
  entryPoint: 'is_balanced',
  prompt: code`def is_balanced(text: str) -> bool:
    """Return True if the brackets (), [] and {} in text are balanced: every
    closing bracket matches the most recent unclosed opening bracket of the same
    kind, and nothing is left open. All other characters are ignored.

    >>> is_balanced("f(a[1], {b: 2})")
    True
    >>> is_balanced("([)]")
    False
    """
`,
  body: code`    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return not stack
`,
  base: code`    assert candidate("([]{})") is True
    assert candidate("f(a[1], {b: 2})") is True
    assert candidate("") is True
    assert candidate("(]") is False
    assert candidate("([)]") is False
    assert candidate("no brackets here") is True
`,
  plus: [
    [''], ['('], [')'], ['(('], ['())'], [')('], ['[]]'], ['{[()()]}'], ['x{y[z(w)v]u}t'], ['{{{{'], ['}}}}'],
    ['('.repeat(500) + ')'.repeat(500)], ['('.repeat(500) + ')'.repeat(499)], ['[]'.repeat(300) + '('], ['"(" is a paren'],
  ],
  candidates: [
    {
      label: 'pair-removal',
      expected: 'pass',
      why: 'Deletes adjacent matching pairs until nothing changes; a balanced string vanishes. Slower but equivalent.',
      program: code`def is_balanced(text: str) -> bool:
    s = "".join(ch for ch in text if ch in "()[]{}")
    previous = None
    while s != previous:
        previous = s
        s = s.replace("()", "").replace("[]", "").replace("{}", "")
    return s == ""
`,
    },
    {
      label: 'ignores-unclosed',
      expected: 'fail',
      why: 'Returns True at the end without checking that the stack is empty, so "((" counts as balanced. Base has no unclosed opener.',
      program: code`def is_balanced(text: str) -> bool:
    closing = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in closing:
            if not stack or stack[-1] != closing[ch]:
                return False
            stack.pop()
    return True
`,
    },
    {
      label: 'pop-empty-stack',
      expected: 'fail',
      why: 'Pops without checking the stack, so a closing bracket with nothing open raises IndexError (an exception in a test is a fail).',
      program: code`def is_balanced(text: str) -> bool:
    closing = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in closing and stack.pop() != closing[ch]:
            return False
    return len(stack) == 0
`,
    },
  ],
});

const topKWordsInput = Array.from({ length: 3000 }, (_, i) => `w${(i * 7919) % 300}`);

const topKWords = pythonTask({
  slug: 'top-k-words',
  entryPoint: 'top_k_words',
  prompt: code`def top_k_words(words: list[str], k: int) -> list[str]:
    """Return the k most frequent words, most frequent first. Words with the
    same count are ordered alphabetically. If there are fewer than k distinct
    words, return all of them.

    >>> top_k_words(["b", "a", "b", "c", "a", "b"], 2)
    ['b', 'a']
    >>> top_k_words(["pear", "fig", "apple"], 2)
    ['apple', 'fig']
    """
`,
  body: code`    counts = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda w: (-counts[w], w))[:k]
`,
  base: code`    assert candidate(["b", "a", "b", "c", "a", "b"], 2) == ["b", "a"]
    assert candidate(["x", "y", "x"], 1) == ["x"]
    assert candidate(["apple", "fig", "pear"], 3) == ["apple", "fig", "pear"]
    assert candidate([], 3) == []
`,
  plus: [
    [['pear', 'fig', 'apple'], 2],
    [['b', 'a'], 1],
    [['c', 'b', 'a', 'a', 'b', 'c'], 3],
    [['one'], 5],
    [['x', 'y', 'x', 'y', 'z'], 0],
    [['to', 'be', 'or', 'not', 'to', 'be', 'that', 'is', 'the', 'question'], 4],
    [topKWordsInput, 10],
  ],
  candidates: [
    {
      label: 'heap',
      expected: 'pass',
      why: 'heapq.nsmallest with the key (-count, word) picks the same k words in the same order.',
      program: code`import heapq
from collections import Counter


def top_k_words(words, k):
    counts = Counter(words)
    return [w for w, _ in heapq.nsmallest(k, counts.items(), key=lambda kv: (-kv[1], kv[0]))]
`,
    },
    {
      label: 'most-common-ties',
      expected: 'fail',
      why: 'Counter.most_common breaks ties by first appearance, not alphabetically; the base ties happen to appear in alphabetical order.',
      program: code`from collections import Counter


def top_k_words(words, k):
    return [word for word, _ in Counter(words).most_common(k)]
`,
    },
    {
      label: 'debug-print',
      expected: 'output-limit',
      why: 'Leftover debugging prints the whole count table after every word; on the 3000-word plus input that is megabytes of output.',
      program: code`def top_k_words(words, k):
    counts = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
        print("counts so far:", counts)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [word for word, _ in ranked[:k]]
`,
    },
  ],
});

const lowerBound = pythonTask({
  slug: 'first-at-least',
  entryPoint: 'first_at_least',
  prompt: code`def first_at_least(xs: list[int], target: int) -> int:
    """xs is sorted in ascending order and may contain duplicates. Return the
    smallest index i with xs[i] >= target, or len(xs) if there is none. Use
    binary search: xs can be long.

    >>> first_at_least([1, 3, 5, 7], 4)
    2
    >>> first_at_least([1, 2, 2, 2, 3], 2)
    1
    >>> first_at_least([1, 2], 9)
    2
    """
`,
  body: code`    lo, hi = 0, len(xs)
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo
`,
  base: code`    assert candidate([1, 3, 5, 7], 4) == 2
    assert candidate([1, 3, 5, 7], 1) == 0
    assert candidate([1, 3, 5, 7], 7) == 3
    assert candidate([10, 20, 30], 0) == 0
    assert candidate([2, 4, 6, 8, 10, 12], 9) == 4
`,
  plus: [
    [[], 5],
    [[1], 1],
    [[1], 2],
    [[1, 2], 9],
    [[1, 2, 2, 2, 3], 2],
    [[5, 5, 5, 5], 5],
    [[5, 5, 5, 5], 6],
    [[-3, -1, -1, 0, 2], -1],
    [[1, 3, 5, 7], 8],
    [randomInts(5, 2000, 0, 500).sort((a, b) => a - b), 250],
    [randomInts(6, 2000, 0, 50).sort((a, b) => a - b), 17],
  ],
  candidates: [
    {
      label: 'bisect',
      expected: 'pass',
      why: 'bisect.bisect_left is exactly this function.',
      program: code`from bisect import bisect_left


def first_at_least(xs, target):
    return bisect_left(xs, target)
`,
    },
    {
      label: 'any-match-on-duplicates',
      expected: 'fail',
      why: 'Classic search that returns as soon as it sees the target: with duplicates it may return a later copy. Right when values are distinct, as in base.',
      program: code`def first_at_least(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return lo
`,
    },
    {
      label: 'never-returns-len',
      expected: 'fail',
      why: 'Starts with hi = len(xs) - 1, so the answer can never be len(xs): wrong when every element is below the target (no base test asks that).',
      program: code`def first_at_least(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo
`,
    },
  ],
});

const wordWrap = pythonTask({
  slug: 'word-wrap',
  entryPoint: 'wrap',
  prompt: code`def wrap(text: str, width: int) -> list[str]:
    """Greedily wrap the words of text (separated by any whitespace) into lines
    of at most width characters, joining words on a line with single spaces.
    A word longer than width is never split: it goes on a line of its own.
    Text with no words gives an empty list.

    >>> wrap("the quick brown fox", 10)
    ['the quick', 'brown fox']
    >>> wrap("a extraordinarily b", 5)
    ['a', 'extraordinarily', 'b']
    """
`,
  body: code`    lines = []
    current = ""
    for word in text.split():
        if not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
`,
  base: code`    assert candidate("the quick brown fox jumps over the lazy dog", 10) == ["the quick", "brown fox", "jumps over", "the lazy", "dog"]
    assert candidate("hello world", 20) == ["hello world"]
    assert candidate("one two three", 5) == ["one", "two", "three"]
    assert candidate("", 8) == []
`,
  plus: [
    ['a extraordinarily b', 5],
    ['   ', 3],
    ['  leading and   trailing   ', 11],
    ['tab\tand\nnewline separated words', 12],
    ['a well-known state-of-the-art method', 12],
    ['abc def', 3],
    ['abc def', 7],
    ['abc def', 6],
    ['x', 1],
    [randomString(21, 600, 'abcdefg   '), 17],
    ['supercalifragilistic expialidocious', 10],
  ],
  candidates: [
    {
      label: 'length-bookkeeping',
      expected: 'pass',
      why: 'Keeps a list of words and a running length instead of a string; same greedy rule.',
      program: code`def wrap(text, width):
    lines, line, length = [], [], 0
    for word in text.split():
        if line and length + 1 + len(word) > width:
            lines.append(" ".join(line))
            line, length = [], 0
        length += len(word) + (1 if line else 0)
        line.append(word)
    if line:
        lines.append(" ".join(line))
    return lines
`,
    },
    {
      label: 'textwrap-defaults',
      expected: 'fail',
      why: 'textwrap.wrap with its defaults splits long words and breaks after hyphens, and keeps runs of spaces inside a line; base has none of these.',
      program: code`import textwrap


def wrap(text, width):
    return textwrap.wrap(text, width)
`,
    },
    {
      label: 'shrink-until-fits',
      expected: 'timeout',
      why: 'Drops words from the end until the line fits; a word longer than width never fits, so it appends an empty line forever.',
      program: code`def wrap(text, width):
    words = text.split()
    lines = []
    while words:
        n = len(words)
        while len(" ".join(words[:n])) > width:
            n -= 1
        lines.append(" ".join(words[:n]))
        words = words[n:]
    return lines
`,
    },
  ],
});

const compareVersions = pythonTask({
  slug: 'compare-versions',
  entryPoint: 'compare_versions',
  prompt: code`def compare_versions(a: str, b: str) -> int:
    """Compare two version strings made of dot-separated non-negative integers.
    Return -1 if a < b, 0 if they are equal, 1 if a > b. Parts are compared as
    numbers from left to right; missing parts count as 0, so "1.2" equals
    "1.2.0", and leading zeros do not matter ("1.02" equals "1.2").

    >>> compare_versions("1.2.10", "1.2.9")
    1
    >>> compare_versions("1.0", "1.0.0")
    0
    """
`,
  body: code`    pa = [int(p) for p in a.split(".")]
    pb = [int(p) for p in b.split(".")]
    n = max(len(pa), len(pb))
    pa += [0] * (n - len(pa))
    pb += [0] * (n - len(pb))
    return (pa > pb) - (pa < pb)
`,
  base: code`    assert candidate("1.2.3", "1.2.4") == -1
    assert candidate("2.0.0", "1.9.9") == 1
    assert candidate("1.10.0", "1.9.0") == 1
    assert candidate("3.1", "3.1") == 0
    assert candidate("1.0", "1.0.0") == 0
`,
  plus: [
    ['1.0.1', '1.0'],
    ['1.0', '1.0.1'],
    ['1.0.0.0', '1'],
    ['1.02', '1.2'],
    ['0.9', '0.10'],
    ['10', '9.99.99'],
    ['1.2.3.4.5', '1.2.3.4.6'],
    ['7', '7.0.0.1'],
    ['0', '0.0'],
    ['2.0', '10.0'],
  ],
  candidates: [
    {
      label: 'zip-longest',
      expected: 'pass',
      why: 'Walks both part lists with zip_longest(fillvalue=0); same result.',
      program: code`from itertools import zip_longest


def compare_versions(a, b):
    for x, y in zip_longest(a.split("."), b.split("."), fillvalue="0"):
        x, y = int(x), int(y)
        if x != y:
            return 1 if x > y else -1
    return 0
`,
    },
    {
      label: 'zip-truncates',
      expected: 'fail',
      why: 'zip stops at the shorter version, so "1.0.1" and "1.0" compare equal; base only has a zero tail.',
      program: code`def compare_versions(a, b):
    for x, y in zip(a.split("."), b.split(".")):
        if int(x) < int(y):
            return -1
        if int(x) > int(y):
            return 1
    return 0
`,
    },
    {
      label: 'string-compare',
      expected: 'fail',
      why: 'Compares the strings themselves, so "1.10.0" < "1.9.0"; even the base suite catches it.',
      program: code`def compare_versions(a, b):
    if a == b:
        return 0
    return 1 if a > b else -1
`,
    },
  ],
});

const dayOfYear = pythonTask({
  slug: 'day-of-year',
  entryPoint: 'day_of_year',
  prompt: code`def day_of_year(date: str) -> int:
    """Given a Gregorian date "YYYY-MM-DD", return its day number within the
    year (January 1 is day 1). Do not use the datetime module. Leap years are
    divisible by 4, except centuries, which must be divisible by 400.

    >>> day_of_year("2024-03-01")
    61
    >>> day_of_year("2023-12-31")
    365
    """
`,
  body: code`    year, month, day = (int(part) for part in date.split("-"))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days_in_month = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return sum(days_in_month[: month - 1]) + day
`,
  base: code`    assert candidate("2024-03-01") == 61
    assert candidate("2023-03-01") == 60
    assert candidate("2023-12-31") == 365
    assert candidate("2024-12-31") == 366
    assert candidate("2019-01-09") == 9
`,
  plus: [
    ['1900-03-01'], ['2000-03-01'], ['2100-12-31'], ['1600-12-31'], ['0004-02-29'], ['2023-02-28'], ['2024-02-29'],
    ['1999-07-04'], ['2400-10-10'], ['1800-06-30'], ['9999-12-31'], ['2024-01-01'],
  ],
  candidates: [
    {
      label: 'cumulative-table',
      expected: 'pass',
      why: 'Cumulative days before each month plus one for leap years after February; equivalent.',
      program: code`def day_of_year(date):
    y, m, d = map(int, date.split("-"))
    before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
    is_leap = (y % 400 == 0) or (y % 4 == 0 and y % 100 != 0)
    return before[m - 1] + d + (1 if is_leap and m > 2 else 0)
`,
    },
    {
      label: 'leap-every-4',
      expected: 'fail',
      why: 'Treats every year divisible by 4 as leap, so 1900 and 2100 get a February 29. The base years are all in 2019-2024.',
      program: code`def day_of_year(date):
    year, month, day = (int(x) for x in date.split("-"))
    months = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if year % 4 == 0:
        months[1] = 29
    return sum(months[: month - 1]) + day
`,
    },
    {
      label: 'reads-stdin',
      expected: 'error',
      why: 'Written as a script: the top level calls input(), which raises EOFError while the program loads.',
      program: code`def day_of_year(date):
    year, month, day = (int(x) for x in date.split("-"))
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    months = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return sum(months[: month - 1]) + day


print(day_of_year(input()))
`,
    },
  ],
});

const spiralOrder = pythonTask({
  slug: 'spiral-order',
  entryPoint: 'spiral_order',
  prompt: code`def spiral_order(matrix: list[list[int]]) -> list[int]:
    """Return the elements of a rectangular matrix in clockwise spiral order,
    starting at the top-left corner. The matrix may have any number of rows and
    columns, including none.

    >>> spiral_order([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    [1, 2, 3, 6, 9, 8, 7, 4, 5]
    >>> spiral_order([[1, 2], [3, 4], [5, 6]])
    [1, 2, 4, 6, 5, 3]
    """
`,
  body: code`    result = []
    if not matrix or not matrix[0]:
        return result
    top, bottom = 0, len(matrix) - 1
    left, right = 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        for c in range(left, right + 1):
            result.append(matrix[top][c])
        for r in range(top + 1, bottom + 1):
            result.append(matrix[r][right])
        if top < bottom:
            for c in range(right - 1, left - 1, -1):
                result.append(matrix[bottom][c])
        if left < right:
            for r in range(bottom - 1, top, -1):
                result.append(matrix[r][left])
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return result
`,
  base: code`    assert candidate([[1, 2, 3], [4, 5, 6], [7, 8, 9]]) == [1, 2, 3, 6, 9, 8, 7, 4, 5]
    assert candidate([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]) == [1, 2, 3, 4, 8, 12, 16, 15, 14, 13, 9, 5, 6, 7, 11, 10]
    assert candidate([[1, 2, 3], [4, 5, 6]]) == [1, 2, 3, 6, 5, 4]
    assert candidate([[7]]) == [7]
`,
  plus: [
    [[]],
    [[[]]],
    [[[1, 2, 3, 4]]],
    [[[1], [2], [3]]],
    [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]],
    [[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]],
    [[[1, 2], [3, 4], [5, 6]]],
    [Array.from({ length: 7 }, (_, r) => Array.from({ length: 9 }, (_, c) => r * 9 + c))],
  ],
  candidates: [
    {
      label: 'peel-and-rotate',
      expected: 'pass',
      why: 'Takes the first row, rotates the rest counter-clockwise, repeats; works for any shape.',
      program: code`def spiral_order(matrix):
    rows = [list(row) for row in matrix]
    out = []
    while rows:
        out.extend(rows.pop(0))
        rows = [list(col) for col in zip(*rows)][::-1]
    return out
`,
    },
    {
      label: 'no-single-row-guard',
      expected: 'fail',
      why: 'Walks the bottom row and left column even when the remaining ring is one row or column thick, repeating elements; square matrices never reach that case.',
      program: code`def spiral_order(matrix):
    result = []
    if not matrix:
        return result
    top, bottom, left, right = 0, len(matrix) - 1, 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        for c in range(left, right + 1):
            result.append(matrix[top][c])
        for r in range(top + 1, bottom + 1):
            result.append(matrix[r][right])
        for c in range(right - 1, left - 1, -1):
            result.append(matrix[bottom][c])
        for r in range(bottom - 1, top, -1):
            result.append(matrix[r][left])
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return result
`,
    },
    {
      label: 'empty-matrix-crash',
      expected: 'fail',
      why: 'Reads matrix[0] before checking for an empty matrix: IndexError on [].',
      program: code`def spiral_order(matrix):
    result = []
    top, bottom, left, right = 0, len(matrix) - 1, 0, len(matrix[0]) - 1
    while top <= bottom and left <= right:
        result += matrix[top][left:right + 1]
        result += [matrix[r][right] for r in range(top + 1, bottom + 1)]
        if top < bottom:
            result += matrix[bottom][left:right][::-1]
        if left < right:
            result += [matrix[r][left] for r in range(bottom - 1, top, -1)]
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return result
`,
    },
  ],
});

const dedupe = pythonTask({
  slug: 'dedupe-keep-order',
  entryPoint: 'dedupe',
  prompt: code`def dedupe(items: list) -> list:
    """Return the items without repeats, keeping the first occurrence of each
    and the original order. Items are hashable (numbers or strings).

    >>> dedupe([3, 1, 3, 2, 1])
    [3, 1, 2]
    >>> dedupe(["b", "a", "b"])
    ['b', 'a']
    """
`,
  body: code`    seen = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out
`,
  base: code`    assert candidate([1, 2, 2, 3, 1]) == [1, 2, 3]
    assert candidate([]) == []
    assert candidate(["a", "a"]) == ["a"]
    assert candidate([4, 4, 5]) == [4, 5]
`,
  plus: [
    [[3, 1, 3, 2, 1]],
    [[1, 2, 3]],
    [['b', 'a', 'b']],
    [[5, 4, 5, 4]],
    [[]],
    [[0, 0, 0]],
    [['x', 'y', 'z', 'x']],
    [randomInts(31, 500, 0, 60)],
    [['a', 'b', 'A', 'a', 'B']],
  ],
  candidates: [
    {
      label: 'dict-fromkeys',
      expected: 'pass',
      why: 'dict keeps insertion order, so dict.fromkeys drops repeats in order.',
      program: code`def dedupe(items):
    return list(dict.fromkeys(items))
`,
    },
    {
      label: 'set-order',
      expected: 'fail',
      why: 'list(set(...)) loses the order; small ints happen to come out sorted, which is what every base case expects.',
      program: code`def dedupe(items):
    return list(set(items))
`,
    },
    {
      label: 'mutable-default',
      expected: 'fail',
      why: 'The "seen" set is a default argument, shared by every call: once a value has been seen in one call it is dropped from later calls. Base calls never share values.',
      program: code`def dedupe(items, seen=set()):
    result = []
    for item in items:
        if item not in seen:
            seen.add(item)
            result.append(item)
    return result
`,
    },
  ],
});

const jsonDoc = {
  users: [
    { name: 'ada', tags: ['admin', 'dev'], active: true, logins: 0 },
    { name: 'bo', tags: [], active: false, logins: 3, manager: null },
  ],
  meta: { count: 2, note: '', nested: { deep: { value: 42 } } },
  'dotted.key': 1,
};

const jsonPath = pythonTask({
  slug: 'json-path-get',
  entryPoint: 'get_path',
  prompt: code`def get_path(data, path: str, default=None):
    """Look up a value in nested dicts and lists. path is a sequence of keys
    separated by dots, where [n] indexes a list: "users[0].name". Return
    default when a key is missing, an index is out of range, or a step meets a
    value of the wrong type. A present value is returned as it is, even if it
    is None, 0 or empty. The empty path returns data itself.

    >>> get_path({"a": {"b": [10, 20]}}, "a.b[1]")
    20
    >>> get_path({"a": 1}, "a.b", "none")
    'none'
    """
`,
  body: code`    import re
    current = data
    for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        if index:
            if not isinstance(current, list) or int(index) >= len(current):
                return default
            current = current[int(index)]
        else:
            if not isinstance(current, dict) or key not in current:
                return default
            current = current[key]
    return current
`,
  base: code`    doc = {"users": [{"name": "ada", "tags": ["admin", "dev"]}], "meta": {"count": 2}}
    assert candidate(doc, "users[0].name") == "ada"
    assert candidate(doc, "users[0].tags[1]") == "dev"
    assert candidate(doc, "meta.count") == 2
    assert candidate(doc, "meta.missing", "n/a") == "n/a"
    assert candidate(doc, "meta.count.x", "n/a") == "n/a"
    assert candidate(doc, "nothing") is None
`,
  plus: [
    [jsonDoc, 'users[1].logins', 'd'],
    [jsonDoc, 'users[0].logins', 'd'],
    [jsonDoc, 'users[0].active', 'd'],
    [jsonDoc, 'users[1].active', 'd'],
    [jsonDoc, 'users[1].tags', 'd'],
    [jsonDoc, 'users[1].manager', 'd'],
    [jsonDoc, 'meta.note', 'd'],
    [jsonDoc, 'users[2].name', 'd'],
    [jsonDoc, 'users[0].tags[5]', 'd'],
    [jsonDoc, 'meta[0]', 'd'],
    [jsonDoc, 'users.name', 'd'],
    [jsonDoc, 'meta.nested.deep.value', 'd'],
    [jsonDoc, '', 'd'],
    [[[1, [2, 3]]], '[0][1][0]', 'd'],
    [{ a: { '0': 'zero' } }, 'a.0', 'd'],
  ],
  candidates: [
    {
      label: 'hand-parser',
      expected: 'pass',
      why: 'Parses the path character by character instead of with a regex; same lookups.',
      program: code`def get_path(data, path, default=None):
    current = data
    i = 0
    while i < len(path):
        ch = path[i]
        if ch == ".":
            i += 1
        elif ch == "[":
            j = path.index("]", i)
            index = int(path[i + 1:j])
            if not isinstance(current, list) or index >= len(current):
                return default
            current = current[index]
            i = j + 1
        else:
            j = i
            while j < len(path) and path[j] not in ".[":
                j += 1
            key = path[i:j]
            if not isinstance(current, dict) or key not in current:
                return default
            current = current[key]
            i = j
    return current
`,
    },
    {
      label: 'falsy-is-missing',
      expected: 'fail',
      why: 'Uses "if not current: return default", so present values 0, False, "", [] and None turn into the default. Every base value is truthy.',
      program: code`def get_path(data, path, default=None):
    current = data
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("["):
            index = int(part[1:-1])
            current = current[index] if isinstance(current, list) and index < len(current) else None
        else:
            current = current.get(part) if isinstance(current, dict) else None
        if not current:
            return default
    return current
`,
    },
    {
      label: 'index-unchecked',
      expected: 'fail',
      why: 'Indexes lists without a bounds check, so an index past the end raises IndexError instead of returning default.',
      program: code`import re


def get_path(data, path, default=None):
    current = data
    for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        if index:
            if not isinstance(current, list):
                return default
            current = current[int(index)]
        elif isinstance(current, dict) and key in current:
            current = current[key]
        else:
            return default
    return current
`,
    },
  ],
});

const lruMisses = pythonTask({
  slug: 'lru-misses',
  entryPoint: 'count_misses',
  prompt: code`def count_misses(capacity: int, requests: list[int]) -> int:
    """Simulate a least-recently-used cache holding at most capacity keys
    (capacity >= 0) and return how many requests miss. A hit makes the key the
    most recently used; a miss inserts the key, first evicting the least
    recently used key if the cache is full. Keys are non-negative integer ids.

    >>> count_misses(2, [1, 2, 1, 3, 2])
    4
    >>> count_misses(2, [1, 2, 1, 3, 1])
    3
    """
`,
  body: code`    from collections import OrderedDict
    cache = OrderedDict()
    misses = 0
    for key in requests:
        if key in cache:
            cache.move_to_end(key)
            continue
        misses += 1
        if capacity == 0:
            continue
        if len(cache) >= capacity:
            cache.popitem(last=False)
        cache[key] = True
    return misses
`,
  base: code`    assert candidate(2, [1, 2, 1, 2]) == 2
    assert candidate(2, [1, 2, 3]) == 3
    assert candidate(1, [1, 1, 1]) == 1
    assert candidate(3, [1, 2, 3, 4, 1]) == 5
    assert candidate(3, []) == 0
`,
  plus: [
    [2, [1, 2, 1, 3, 1]],
    [2, [1, 2, 1, 3, 2]],
    [0, [1, 1, 1]],
    [1, [5, 6, 5, 6]],
    [3, [1, 2, 3, 1, 4, 1, 5, 2]],
    [4, randomInts(41, 400, 0, 9)],
    [10, []],
    [2, [1000000000000, 7, 1000000000000, 8, 7]],
  ],
  candidates: [
    {
      label: 'recency-list',
      expected: 'pass',
      why: 'Keeps keys in a list ordered by recency (remove + append); same evictions, O(n*capacity).',
      program: code`def count_misses(capacity, requests):
    recent = []
    misses = 0
    for key in requests:
        if key in recent:
            recent.remove(key)
            recent.append(key)
            continue
        misses += 1
        if capacity > 0:
            if len(recent) == capacity:
                recent.pop(0)
            recent.append(key)
    return misses
`,
    },
    {
      label: 'fifo-not-lru',
      expected: 'fail',
      why: 'A hit does not refresh the key, so this is FIFO eviction; the base sequences never tell FIFO from LRU.',
      program: code`from collections import deque


def count_misses(capacity, requests):
    order = deque()
    cached = set()
    misses = 0
    for key in requests:
        if key in cached:
            continue
        misses += 1
        if capacity == 0:
            continue
        if len(order) == capacity:
            cached.discard(order.popleft())
        order.append(key)
        cached.add(key)
    return misses
`,
    },
    {
      label: 'capacity-zero-crash',
      expected: 'fail',
      why: 'With capacity 0 the cache is always "full" and empty, so popitem raises KeyError.',
      program: code`from collections import OrderedDict


def count_misses(capacity, requests):
    cache = OrderedDict()
    misses = 0
    for key in requests:
        if key in cache:
            cache.move_to_end(key)
        else:
            misses += 1
            if len(cache) >= capacity:
                cache.popitem(last=False)
            cache[key] = True
    return misses
`,
    },
    {
      label: 'array-by-id',
      expected: 'memory',
      why: 'Indexes bookkeeping lists by key id; an id of 10**12 asks for lists of a trillion slots (8 TB each), which the memory limit refuses with MemoryError.',
      program: code`def count_misses(capacity, requests):
    if not requests:
        return 0
    size = max(requests) + 1
    last_used = [-1] * size
    cached = [False] * size
    in_cache = []
    misses = 0
    for t, key in enumerate(requests):
        if not cached[key]:
            misses += 1
            if capacity > 0:
                if len(in_cache) == capacity:
                    victim = min(in_cache, key=lambda k: last_used[k])
                    in_cache.remove(victim)
                    cached[victim] = False
                in_cache.append(key)
                cached[key] = True
        last_used[key] = t
    return misses
`,
    },
  ],
});

const averageRating = pythonTask({
  slug: 'average-rating',
  entryPoint: 'average_rating',
  prompt: code`def average_rating(ratings: list[int]) -> float:
    """Return the mean of star ratings (integers 1 to 5) rounded to one decimal
    place, with exact halves rounded up: a mean of 4.25 gives 4.3. The average
    of no ratings is 0.0.

    >>> average_rating([4, 5])
    4.5
    >>> average_rating([4, 4, 4, 5])
    4.3
    """
`,
  body: code`    if not ratings:
        return 0.0
    total, n = sum(ratings), len(ratings)
    tenths = (20 * total + n) // (2 * n)
    return tenths / 10
`,
  base: code`    assert candidate([4, 5]) == 4.5
    assert candidate([5, 5, 4]) == 4.7
    assert candidate([3]) == 3.0
    assert candidate([1, 2, 3, 4]) == 2.5
`,
  plus: [[[4, 4, 4, 5]], [[1, 1, 1, 2]], [[]], [[5]], [[1, 2]], [[2, 2, 2, 3]], [[3, 3, 3, 3, 3, 3, 3, 4]], [[1, 5, 5, 5]], [randomInts(51, 1000, 1, 5)], [[1, 1, 1, 1, 1, 1, 1, 2]]],
  candidates: [
    {
      label: 'decimal-half-up',
      expected: 'pass',
      why: 'decimal with ROUND_HALF_UP rounds the exact quotient the same way as the integer formula.',
      program: code`from decimal import Decimal, ROUND_HALF_UP


def average_rating(ratings):
    if len(ratings) == 0:
        return 0.0
    mean = Decimal(sum(ratings)) / Decimal(len(ratings))
    return float(mean.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
`,
    },
    {
      label: 'builtin-round',
      expected: 'fail',
      why: 'round() rounds halves to even (4.25 -> 4.2, 1.25 -> 1.2) and divides by zero on an empty list; the base means never end in 5 hundredths.',
      program: code`def average_rating(ratings):
    return round(sum(ratings) / len(ratings), 1)
`,
    },
  ],
});

export const pythonTasks: readonly BuiltinTask[] = [
  runLengthEncode,
  mergeIntervals,
  romanNumerals,
  balancedBrackets,
  topKWords,
  lowerBound,
  wordWrap,
  compareVersions,
  dayOfYear,
  spiralOrder,
  dedupe,
  jsonPath,
  lruMisses,
  averageRating,
];
