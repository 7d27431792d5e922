/** Feedback text: the one failing fact a model should read next, stated plainly. */
import { callText, type FailureFact } from './facts.js';

const MAX_FIELD = 600;

const clip = (text: string) =>
  text.length > MAX_FIELD ? `${text.slice(0, MAX_FIELD)}… (${text.length - MAX_FIELD} more characters)` : text;

export function renderFeedback(fact: FailureFact, entry: string): string {
  const lines = [`Your program fails a check (${fact.check}).`];
  if (fact.input !== null)
    lines.push(
      `Input: ${clip(callText(entry, fact.input))}${fact.shrunk ? '   (the smallest input we found that fails)' : ''}`,
    );
  if (fact.expected !== null) lines.push(`Expected: ${clip(fact.expected)}`);
  if (fact.actual !== null) lines.push(`Your program returned: ${clip(fact.actual)}`);
  const message = fact.message.split('\n').slice(0, 8).join('\n');
  if (message) lines.push(`Message: ${clip(message)}`);
  lines.push(
    '',
    'Fix the program so that it is correct for this input and for every other input the task allows. Reply with the complete corrected function in one fenced code block.',
  );
  return lines.join('\n');
}
