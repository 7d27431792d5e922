/**
 * Built-in JavaScript tasks. Written for Crucible (not taken from any dataset): prompts
 * and `base` tests follow the MultiPL-E layout (a comment, then an open function; tests
 * call `candidate` through node:assert), and a "plus" io suite adds edge cases whose
 * expected outputs come from running the reference.
 */
import { code, defineTask, multiplETest, type BuiltinSpec, type BuiltinTask } from './define.js';

const javascriptTask = (spec: BuiltinSpec): BuiltinTask => defineTask('javascript', spec, { code: multiplETest(spec) });

// ---------------------------------------------------------------------------------------

const chunk = javascriptTask({
  slug: 'chunk-array',
  entryPoint: 'chunk',
  prompt: code`//Split arr into consecutive chunks of size elements (size >= 1). The last
// chunk holds whatever is left over and may be shorter. Returns a new array.
// >>> chunk([1, 2, 3, 4, 5], 2)
// [[1, 2], [3, 4], [5]]
// >>> chunk([], 3)
// []
function chunk(arr, size){
`,
  body: code`  const out = [];
  for (let i = 0; i < arr.length; i += size) {
    out.push(arr.slice(i, i + size));
  }
  return out;
}
`,
  base: code`  assert.deepEqual(candidate([1, 2, 3, 4], 2),[[1, 2], [3, 4]]);
  assert.deepEqual(candidate(["a", "b", "c", "d", "e", "f"], 3),[["a", "b", "c"], ["d", "e", "f"]]);
  assert.deepEqual(candidate([1, 2, 3], 1),[[1], [2], [3]]);
  assert.deepEqual(candidate([], 3),[]);
`,
  plus: [
    [[1, 2, 3, 4, 5], 2],
    [[1, 2, 3], 5],
    [[1], 1],
    [[], 1],
    [[1, 2, 3, 4, 5, 6, 7], 3],
    [Array.from({ length: 100 }, (_, i) => i), 7],
    [[[1], [2], [3]], 2],
    [[null, 0, ''], 2],
  ],
  candidates: [
    {
      label: 'reduce',
      expected: 'pass',
      why: 'Builds the chunks with reduce, starting a new chunk every size elements; same result.',
      program: code`function chunk(arr, size) {
  return arr.reduce((chunks, item, i) => {
    if (i % size === 0) chunks.push([]);
    chunks[chunks.length - 1].push(item);
    return chunks;
  }, []);
}
`,
    },
    {
      label: 'drops-partial-chunk',
      expected: 'fail',
      why: 'Loops while a whole chunk fits, so a shorter last chunk is dropped; every base length is a multiple of size.',
      program: code`function chunk(arr, size) {
  const out = [];
  for (let i = 0; i + size <= arr.length; i += size) {
    out.push(arr.slice(i, i + size));
  }
  return out;
}
`,
    },
    {
      label: 'syntax-error',
      expected: 'error',
      why: 'The for header is missing its closing parenthesis: the program does not parse.',
      program: code`function chunk(arr, size) {
  const out = [];
  for (let i = 0; i < arr.length; i += size {
    out.push(arr.slice(i, i + size));
  }
  return out;
}
`,
    },
  ],
});

const median = javascriptTask({
  slug: 'median',
  entryPoint: 'median',
  prompt: code`//Return the median of an array of numbers: the middle value after sorting
// in ascending numeric order, or the mean of the two middle values when the
// count is even. Return null for an empty array. Do not modify the input.
// >>> median([3, 1, 2])
// 2
// >>> median([4, 1, 3, 2])
// 2.5
function median(nums){
`,
  body: code`  if (nums.length === 0) return null;
  const sorted = [...nums].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
`,
  base: code`  assert.deepEqual(candidate([3, 1, 2]),2);
  assert.deepEqual(candidate([4, 1, 3, 2]),2.5);
  assert.deepEqual(candidate([5]),5);
  assert.deepEqual(candidate([7, 7, 1]),7);
  assert.deepEqual(candidate([]),null);
`,
  plus: [
    [[10, 9, 2]],
    [[100, 20, 3, 4]],
    [[-5, -10, 3]],
    [[1.5, 0.25, 1]],
    [[]],
    [[42]],
    [[2, 2, 2, 2]],
    [[1000, 999, 10, 1, 5]],
    [Array.from({ length: 201 }, (_, i) => (i * 7919) % 1000)],
  ],
  candidates: [
    {
      label: 'typed-array-sort',
      expected: 'pass',
      why: 'Float64Array sorts numerically by default, and copying into it leaves the input alone.',
      program: code`function median(nums) {
  if (!nums.length) return null;
  const s = Float64Array.from(nums).sort();
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
`,
    },
    {
      label: 'default-sort',
      expected: 'fail',
      why: 'Array.prototype.sort without a comparator sorts as strings, so 10 comes before 9; right whenever every number has one digit, as in base.',
      program: code`function median(nums) {
  if (nums.length === 0) return null;
  const sorted = nums.slice().sort();
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 0) return (sorted[mid - 1] + sorted[mid]) / 2;
  return sorted[mid];
}
`,
    },
  ],
});

const toSnakeCase = javascriptTask({
  slug: 'to-snake-case',
  entryPoint: 'toSnakeCase',
  prompt: code`//Convert a camelCase or PascalCase identifier to snake_case. Runs of capitals
// are acronyms and stay together: "parseHTTPResponse" becomes
// "parse_http_response". Underscores already present are kept.
// >>> toSnakeCase("userName")
// "user_name"
// >>> toSnakeCase("HTMLParser")
// "html_parser"
function toSnakeCase(name){
`,
  body: code`  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
`,
  base: code`  assert.deepEqual(candidate("parseResponse"),"parse_response");
  assert.deepEqual(candidate("userName"),"user_name");
  assert.deepEqual(candidate("PascalCase"),"pascal_case");
  assert.deepEqual(candidate("simple"),"simple");
`,
  plus: [
    ['parseHTTPResponse'],
    ['HTMLParser'],
    ['userID'],
    [''],
    ['a'],
    ['X'],
    ['already_snake'],
    ['version2Update'],
    ['myXMLHttpRequest'],
    ['ABC'],
    ['getX'],
  ],
  candidates: [
    {
      label: 'char-loop',
      expected: 'pass',
      why: 'Decides per capital letter from its neighbours (after a lowercase letter or digit, or ending an acronym); same rule as the regexes.',
      program: code`function toSnakeCase(name) {
  const isUpper = (c) => c !== undefined && c >= 'A' && c <= 'Z';
  const isLower = (c) => c !== undefined && c >= 'a' && c <= 'z';
  const isDigit = (c) => c !== undefined && c >= '0' && c <= '9';
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (isUpper(c) && i > 0) {
      const prev = name[i - 1];
      const next = name[i + 1];
      if (isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(next))) out += '_';
    }
    out += c.toLowerCase();
  }
  return out;
}
`,
    },
    {
      label: 'splits-acronyms',
      expected: 'fail',
      why: 'Puts an underscore before every capital, so HTMLParser becomes h_t_m_l_parser; the base names have no acronyms.',
      program: code`function toSnakeCase(name) {
  return name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()).replace(/^_/, '');
}
`,
    },
    {
      label: 'empty-string-crash',
      expected: 'fail',
      why: 'Starts from name[0].toLowerCase(), which throws a TypeError for the empty string.',
      program: code`function toSnakeCase(name) {
  let out = name[0].toLowerCase();
  for (let i = 1; i < name.length; i++) {
    const c = name[i];
    const prev = name[i - 1];
    const next = name[i + 1] || '';
    const upper = c >= 'A' && c <= 'Z';
    if (upper && (/[a-z0-9]/.test(prev) || (/[A-Z]/.test(prev) && /[a-z]/.test(next)))) out += '_';
    out += c.toLowerCase();
  }
  return out;
}
`,
    },
  ],
});

const parseQuery = javascriptTask({
  slug: 'parse-query-string',
  entryPoint: 'parseQuery',
  prompt: code`//Parse a URL query string into an object. A leading "?" is optional; pairs
// are separated by "&" and empty pairs are skipped. A pair without "=" has the
// value "". Keys and values are percent-decoded and "+" means a space. The
// value is everything after the first "=". A key that appears more than once
// maps to an array of its values in order.
// >>> parseQuery("?a=1&b=hello+world")
// {"a": "1", "b": "hello world"}
// >>> parseQuery("t=1&t=2&flag")
// {"t": ["1", "2"], "flag": ""}
function parseQuery(qs){
`,
  body: code`  const decode = (s) => decodeURIComponent(s.replace(/\+/g, ' '));
  const out = {};
  const text = qs.startsWith('?') ? qs.slice(1) : qs;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq === -1 ? part : part.slice(0, eq));
    const value = decode(eq === -1 ? '' : part.slice(eq + 1));
    if (Object.prototype.hasOwnProperty.call(out, key)) {
      out[key] = Array.isArray(out[key]) ? [...out[key], value] : [out[key], value];
    } else {
      out[key] = value;
    }
  }
  return out;
}
`,
  base: code`  assert.deepEqual(candidate("a=1&b=2"),{"a": "1", "b": "2"});
  assert.deepEqual(candidate("?x=hello%20world"),{"x": "hello world"});
  assert.deepEqual(candidate("flag&k=v"),{"flag": "", "k": "v"});
  assert.deepEqual(candidate("t=1&t=2"),{"t": ["1", "2"]});
  assert.deepEqual(candidate(""),{});
`,
  plus: [
    ['q=a+b'],
    ['token=abc=='],
    ['redirect=%2Fhome%3Fx%3D1&next=/a?b=c'],
    ['a=1&&b=2&'],
    ['?'],
    ['a=1&a=2&a=3'],
    ['%E2%9C%93=yes'],
    ['k=%2B1'],
    ['=v'],
    ['x=1&y&x=2'],
    ['name=J%C3%BCrgen+M%C3%BCller&city=K%C3%B6ln'],
  ],
  candidates: [
    {
      label: 'reduce',
      expected: 'pass',
      why: 'Same rules in a filter/reduce pipeline, splitting each pair at its first "=" with a regex.',
      program: code`function parseQuery(qs) {
  const decode = (s) => decodeURIComponent(s.split('+').join(' '));
  return qs
    .replace(/^\?/, '')
    .split('&')
    .filter((pair) => pair.length > 0)
    .reduce((acc, pair) => {
      const m = /^([^=]*)(?:=(.*))?$/s.exec(pair);
      const key = decode(m[1]);
      const value = decode(m[2] === undefined ? '' : m[2]);
      if (!(key in acc)) acc[key] = value;
      else if (Array.isArray(acc[key])) acc[key].push(value);
      else acc[key] = [acc[key], value];
      return acc;
    }, {});
}
`,
    },
    {
      label: 'plus-not-space',
      expected: 'fail',
      why: 'decodeURIComponent alone leaves "+" as a plus sign; no base value has a "+".',
      program: code`function parseQuery(qs) {
  const result = {};
  if (qs.startsWith('?')) qs = qs.slice(1);
  for (const pair of qs.split('&')) {
    if (!pair) continue;
    const i = pair.indexOf('=');
    const key = decodeURIComponent(i < 0 ? pair : pair.slice(0, i));
    const value = decodeURIComponent(i < 0 ? '' : pair.slice(i + 1));
    if (key in result) result[key] = [].concat(result[key], value);
    else result[key] = value;
  }
  return result;
}
`,
    },
    {
      label: 'split-every-equals',
      expected: 'fail',
      why: 'Destructures pair.split("="), so a value containing "=" (base64 padding, nested URLs) is cut at its first "=".',
      program: code`function parseQuery(qs) {
  const result = {};
  const decode = (s) => decodeURIComponent(s.replace(/\+/g, ' '));
  for (const pair of qs.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const [key, value = ''] = pair.split('=');
    const k = decode(key);
    const v = decode(value);
    if (k in result) result[k] = Array.isArray(result[k]) ? result[k].concat([v]) : [result[k], v];
    else result[k] = v;
  }
  return result;
}
`,
    },
  ],
});

const summarizeRanges = javascriptTask({
  slug: 'summarize-ranges',
  entryPoint: 'summarizeRanges',
  prompt: code`//Given integers sorted in ascending order (duplicates allowed), describe
// them as runs of consecutive values: "a->b" for a run from a to b, or "a" for
// a run of one value.
// >>> summarizeRanges([0, 1, 2, 4, 5, 7])
// ["0->2", "4->5", "7"]
// >>> summarizeRanges([1, 1, 2])
// ["1->2"]
function summarizeRanges(nums){
`,
  body: code`  const out = [];
  let i = 0;
  while (i < nums.length) {
    const start = nums[i];
    let end = start;
    i++;
    while (i < nums.length && (nums[i] === end || nums[i] === end + 1)) {
      end = nums[i];
      i++;
    }
    out.push(start === end ? String(start) : start + '->' + end);
  }
  return out;
}
`,
  base: code`  assert.deepEqual(candidate([0, 1, 2, 4, 5, 7]),["0->2", "4->5", "7"]);
  assert.deepEqual(candidate([0, 2, 3, 4, 6, 8, 9]),["0", "2->4", "6", "8->9"]);
  assert.deepEqual(candidate([]),[]);
  assert.deepEqual(candidate([-3, -2, -1]),["-3->-1"]);
`,
  plus: [
    [[1, 1, 2]],
    [[5, 5, 5]],
    [[1, 2, 2, 3, 5, 5, 6]],
    [[7]],
    [[-1, 0, 1, 1, 3]],
    [[10, 20, 30]],
    [Array.from({ length: 300 }, (_, i) => Math.floor((i * 13) / 17))],
  ],
  candidates: [
    {
      label: 'dedupe-first',
      expected: 'pass',
      why: 'Removes duplicates with a Set first, then groups strictly consecutive values; same runs.',
      program: code`function summarizeRanges(nums) {
  const values = [...new Set(nums)];
  const out = [];
  let start = 0;
  for (let i = 1; i <= values.length; i++) {
    if (i === values.length || values[i] !== values[i - 1] + 1) {
      out.push(start === i - 1 ? '' + values[start] : values[start] + '->' + values[i - 1]);
      start = i;
    }
  }
  return out;
}
`,
    },
    {
      label: 'duplicates-break-runs',
      expected: 'fail',
      why: 'Only value+1 continues a run, so a repeated value starts a new one ([1, 1, 2] gives ["1", "1->2"]); base inputs have no duplicates.',
      program: code`function summarizeRanges(nums) {
  const out = [];
  for (let i = 0; i < nums.length; i++) {
    const start = nums[i];
    while (i + 1 < nums.length && nums[i + 1] === nums[i] + 1) i++;
    out.push(start === nums[i] ? String(start) : start + '->' + nums[i]);
  }
  return out;
}
`,
    },
  ],
});

const daysBetween = javascriptTask({
  slug: 'days-between',
  entryPoint: 'daysBetween',
  prompt: code`//Return the number of days from date a to date b, both given as
// "YYYY-MM-DD" in the proleptic Gregorian calendar (negative if b is before
// a). Years are between 1000 and 9999.
// >>> daysBetween("2024-01-01", "2024-03-01")
// 60
// >>> daysBetween("2024-03-10", "2024-03-01")
// -9
function daysBetween(a, b){
`,
  body: code`  // Days since 0000-03-01 (H. Hinnant's days_from_civil).
  const toDays = (iso) => {
    let [y, m, d] = iso.split('-').map(Number);
    if (m <= 2) y -= 1;
    const era = Math.floor(y / 400);
    const yoe = y - era * 400;
    const mp = (m + 9) % 12;
    const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
    const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
    return era * 146097 + doe;
  };
  return toDays(b) - toDays(a);
}
`,
  base: code`  assert.deepEqual(candidate("2024-01-01", "2024-03-01"),60);
  assert.deepEqual(candidate("2023-12-25", "2024-01-01"),7);
  assert.deepEqual(candidate("2024-03-10", "2024-03-01"),-9);
  assert.deepEqual(candidate("2023-01-01", "2024-01-01"),365);
  assert.deepEqual(candidate("2022-06-15", "2022-06-15"),0);
`,
  plus: [
    ['1899-12-31', '1900-03-01'],
    ['2000-02-28', '2000-03-01'],
    ['2100-02-28', '2100-03-01'],
    ['1900-01-01', '2000-01-01'],
    ['2000-01-01', '2100-01-01'],
    ['1600-02-29', '2024-02-29'],
    ['9999-12-31', '1000-01-01'],
    ['2024-12-31', '2025-01-01'],
    ['1970-01-01', '2038-01-19'],
  ],
  candidates: [
    {
      label: 'date-utc',
      expected: 'pass',
      why: 'Date.UTC counts milliseconds in the proleptic Gregorian calendar, free of time zones; dividing by a day is exact.',
      program: code`function daysBetween(a, b) {
  const ms = (s) => {
    const [y, m, d] = s.split('-').map(Number);
    return Date.UTC(y, m - 1, d);
  };
  return Math.round((ms(b) - ms(a)) / 86400000);
}
`,
    },
    {
      label: 'leap-every-4',
      expected: 'fail',
      why: 'Counts every fourth year as leap, so spans over 1900 or 2100 gain a day; the base dates are all in 2022-2024.',
      program: code`function daysBetween(a, b) {
  const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  const isLeap = (y) => y % 4 === 0;
  const ordinal = (s) => {
    const [y, m, d] = s.split('-').map(Number);
    let days = 0;
    for (let year = 1000; year < y; year++) days += isLeap(year) ? 366 : 365;
    for (let month = 1; month < m; month++) days += monthDays[month - 1] + (month === 2 && isLeap(y) ? 1 : 0);
    return days + d;
  };
  return ordinal(b) - ordinal(a);
}
`,
    },
  ],
});

const longText = 'ab'.repeat(20000);

const isSubsequence = javascriptTask({
  slug: 'is-subsequence',
  entryPoint: 'isSubsequence',
  prompt: code`//Return true if the characters of needle appear in haystack in the same
// order, not necessarily next to each other. The empty string is a
// subsequence of every string. Strings can be hundreds of thousands of
// characters long.
// >>> isSubsequence("ace", "abcde")
// true
// >>> isSubsequence("aec", "abcde")
// false
function isSubsequence(needle, haystack){
`,
  body: code`  let i = 0;
  for (let j = 0; j < haystack.length && i < needle.length; j++) {
    if (haystack[j] === needle[i]) i++;
  }
  return i === needle.length;
}
`,
  base: code`  assert.deepEqual(candidate("ace", "abcde"),true);
  assert.deepEqual(candidate("axc", "ahbgdc"),false);
  assert.deepEqual(candidate("", "abc"),true);
  assert.deepEqual(candidate("abc", "abc"),true);
  assert.deepEqual(candidate("abcd", "abc"),false);
  assert.deepEqual(candidate("b".repeat(20000), "ab".repeat(100000)),true);
`,
  plus: [
    ['ba', 'ab'],
    ['aa', 'a'],
    ['aec', 'abcde'],
    ['', ''],
    ['a', ''],
    ['abc', 'aabbcc'],
    ['cba', 'abcabc'],
    ['b'.repeat(20001), longText],
    ['a'.repeat(19999) + 'c', longText + 'c'],
  ],
  candidates: [
    {
      label: 'index-of-chain',
      expected: 'pass',
      why: 'Finds each character with indexOf starting after the previous match; linear and equivalent.',
      program: code`function isSubsequence(needle, haystack) {
  let from = 0;
  for (const ch of needle) {
    const at = haystack.indexOf(ch, from);
    if (at === -1) return false;
    from = at + 1;
  }
  return true;
}
`,
    },
    {
      label: 'ignores-order',
      expected: 'fail',
      why: 'Only checks that each character occurs somewhere in haystack, ignoring order and repeats ("ba" in "ab"); base inputs are not sensitive to that.',
      program: code`function isSubsequence(needle, haystack) {
  for (const ch of needle) {
    if (!haystack.includes(ch)) return false;
  }
  return needle.length <= haystack.length;
}
`,
    },
    {
      label: 'lcs-table',
      expected: 'memory',
      why: 'Computes a full longest-common-subsequence table in one flat Float64Array of (n+1) x (m+1) cells: 4 billion cells (32 GB) for the long base pair, an allocation the memory limit refuses at once.',
      program: code`function isSubsequence(needle, haystack) {
  const n = needle.length, m = haystack.length;
  const width = m + 1;
  const lcs = new Float64Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      lcs[i * width + j] = needle[i - 1] === haystack[j - 1]
        ? lcs[(i - 1) * width + j - 1] + 1
        : Math.max(lcs[(i - 1) * width + j], lcs[i * width + j - 1]);
    }
  }
  return lcs[n * width + m] === n;
}
`,
    },
  ],
});

const isValidIPv4 = javascriptTask({
  slug: 'is-valid-ipv4',
  entryPoint: 'isValidIPv4',
  prompt: code`//Return true if s is a dotted-decimal IPv4 address: exactly four parts
// separated by dots, each a decimal number from 0 to 255 written with digits
// only and without leading zeros ("0" itself is fine).
// >>> isValidIPv4("192.168.1.1")
// true
// >>> isValidIPv4("192.168.01.1")
// false
function isValidIPv4(s){
`,
  body: code`  const parts = s.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}
`,
  base: code`  assert.deepEqual(candidate("192.168.1.1"),true);
  assert.deepEqual(candidate("0.0.0.0"),true);
  assert.deepEqual(candidate("255.255.255.255"),true);
  assert.deepEqual(candidate("256.1.1.1"),false);
  assert.deepEqual(candidate("1.2.3"),false);
  assert.deepEqual(candidate("a.b.c.d"),false);
  assert.deepEqual(candidate("1.2.3.4.5"),false);
`,
  plus: [
    ['192.168.01.1'],
    ['1..2.3'],
    ['1.2.3.'],
    [''],
    [' 1.2.3.4'],
    ['1.2.3.4 '],
    ['1e1.2.3.4'],
    ['0x1.2.3.4'],
    ['00.1.2.3'],
    ['10.0.0.255'],
    ['1.2.3.-4'],
    ['+1.2.3.4'],
    ['999.1.1.1'],
  ],
  candidates: [
    {
      label: 'one-regex',
      expected: 'pass',
      why: 'A single anchored regex for the four octets, with the 0-255 ranges spelled out.',
      program: code`function isValidIPv4(s) {
  const octet = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
  return new RegExp('^' + octet + '\\.' + octet + '\\.' + octet + '\\.' + octet + '$').test(s);
}
`,
    },
    {
      label: 'number-coercion',
      expected: 'fail',
      why: 'Trusts Number(): "" is 0, " 1" is 1, "1e1" is 10 and "01" is 1, so malformed parts pass; the base has none.',
      program: code`function isValidIPv4(s) {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => {
    const n = Number(p);
    return Number.isInteger(n) && n >= 0 && n <= 255;
  });
}
`,
    },
    {
      label: 'match-null',
      expected: 'fail',
      why: 'Calls .slice on the result of match, which is null when the shape is wrong: a TypeError, already on the base input "1.2.3".',
      program: code`function isValidIPv4(s) {
  const m = s.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  return m.slice(1).every((p) => Number(p) <= 255 && (p === '0' || p[0] !== '0'));
}
`,
    },
  ],
});

export const javascriptTasks: readonly BuiltinTask[] = [
  chunk,
  median,
  toSnakeCase,
  parseQuery,
  summarizeRanges,
  daysBetween,
  isSubsequence,
  isValidIPv4,
];
