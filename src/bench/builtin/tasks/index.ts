/**
 * Every built-in task, in the order the suite lists them (Python, then JavaScript, then
 * TypeScript), with its hand-written checks. A new task's folder is added here too:
 * directory order is not an order anyone chose, and the checks are imported statically so
 * that `builtinTasks` stays a synchronous export. load.ts refuses a folder missing here.
 */
import type { Language } from '../../../core/task.js';
import type { TaskChecks } from '../check-helpers.js';
import pyRunLengthEncode from './python/run-length-encode/checks.js';
import pyMergeIntervals from './python/merge-intervals/checks.js';
import pyRomanNumerals from './python/roman-numerals/checks.js';
import pyBalancedBrackets from './python/balanced-brackets/checks.js';
import pyTopKWords from './python/top-k-words/checks.js';
import pyFirstAtLeast from './python/first-at-least/checks.js';
import pyWordWrap from './python/word-wrap/checks.js';
import pyCompareVersions from './python/compare-versions/checks.js';
import pyDayOfYear from './python/day-of-year/checks.js';
import pySpiralOrder from './python/spiral-order/checks.js';
import pyDedupeKeepOrder from './python/dedupe-keep-order/checks.js';
import pyJsonPathGet from './python/json-path-get/checks.js';
import pyLruMisses from './python/lru-misses/checks.js';
import pyAverageRating from './python/average-rating/checks.js';
import jsChunkArray from './javascript/chunk-array/checks.js';
import jsMedian from './javascript/median/checks.js';
import jsToSnakeCase from './javascript/to-snake-case/checks.js';
import jsParseQueryString from './javascript/parse-query-string/checks.js';
import jsSummarizeRanges from './javascript/summarize-ranges/checks.js';
import jsDaysBetween from './javascript/days-between/checks.js';
import jsIsSubsequence from './javascript/is-subsequence/checks.js';
import jsIsValidIpv4 from './javascript/is-valid-ipv4/checks.js';
import tsRotateRight from './typescript/rotate-right/checks.js';
import tsMatrixMultiply from './typescript/matrix-multiply/checks.js';
import tsGroupAnagrams from './typescript/group-anagrams/checks.js';
import tsParseCsvLine from './typescript/parse-csv-line/checks.js';
import tsLevenshtein from './typescript/levenshtein/checks.js';
import tsTwelveHourClock from './typescript/twelve-hour-clock/checks.js';
import tsPercentile from './typescript/percentile/checks.js';
import tsApplyTransactions from './typescript/apply-transactions/checks.js';

export interface TaskEntry {
  readonly language: Language;
  /** The folder tasks/<language>/<slug>/, and the last part of the id builtin/<py|js|ts>/<slug>. */
  readonly slug: string;
  /** Its checks.ts, for a task that has one. */
  readonly checks?: TaskChecks;
}

export const TASKS: readonly TaskEntry[] = [
  { language: 'python', slug: 'run-length-encode', checks: pyRunLengthEncode },
  { language: 'python', slug: 'merge-intervals', checks: pyMergeIntervals },
  { language: 'python', slug: 'roman-numerals', checks: pyRomanNumerals },
  { language: 'python', slug: 'balanced-brackets', checks: pyBalancedBrackets },
  { language: 'python', slug: 'top-k-words', checks: pyTopKWords },
  { language: 'python', slug: 'first-at-least', checks: pyFirstAtLeast },
  { language: 'python', slug: 'word-wrap', checks: pyWordWrap },
  { language: 'python', slug: 'compare-versions', checks: pyCompareVersions },
  { language: 'python', slug: 'day-of-year', checks: pyDayOfYear },
  { language: 'python', slug: 'spiral-order', checks: pySpiralOrder },
  { language: 'python', slug: 'dedupe-keep-order', checks: pyDedupeKeepOrder },
  { language: 'python', slug: 'json-path-get', checks: pyJsonPathGet },
  { language: 'python', slug: 'lru-misses', checks: pyLruMisses },
  { language: 'python', slug: 'average-rating', checks: pyAverageRating },
  { language: 'javascript', slug: 'chunk-array', checks: jsChunkArray },
  { language: 'javascript', slug: 'median', checks: jsMedian },
  { language: 'javascript', slug: 'to-snake-case', checks: jsToSnakeCase },
  { language: 'javascript', slug: 'parse-query-string', checks: jsParseQueryString },
  { language: 'javascript', slug: 'summarize-ranges', checks: jsSummarizeRanges },
  { language: 'javascript', slug: 'days-between', checks: jsDaysBetween },
  { language: 'javascript', slug: 'is-subsequence', checks: jsIsSubsequence },
  { language: 'javascript', slug: 'is-valid-ipv4', checks: jsIsValidIpv4 },
  { language: 'typescript', slug: 'rotate-right', checks: tsRotateRight },
  { language: 'typescript', slug: 'matrix-multiply', checks: tsMatrixMultiply },
  { language: 'typescript', slug: 'group-anagrams', checks: tsGroupAnagrams },
  { language: 'typescript', slug: 'parse-csv-line', checks: tsParseCsvLine },
  { language: 'typescript', slug: 'levenshtein', checks: tsLevenshtein },
  { language: 'typescript', slug: 'twelve-hour-clock', checks: tsTwelveHourClock },
  { language: 'typescript', slug: 'percentile', checks: tsPercentile },
  { language: 'typescript', slug: 'apply-transactions', checks: tsApplyTransactions },
];
