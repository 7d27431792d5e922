/** A games task as a strategy's subject: the game is written, played with its plan and repaired through the games pack. */
import type { BrowserRuntime } from '../../browser/runtime.js';
import { gamesPack, type GameChecks, type GameTask } from './index.js';
import type { Report } from '../types.js';
import type { FailureFact } from '../../feedback/facts.js';
import type { ChatMessage } from '../../models/index.js';
import { revision, type Subject } from '../subject.js';

export type GamesSubject = Subject<GameTask, GameChecks>;

const SYSTEM =
  'You are a careful front-end developer. You write small browser games as one complete HTML document: every script and style inline, nothing loaded from elsewhere, no randomness unless the task asks for it.';
const FORM =
  'Reply with the complete game as one HTML document in one ```html code block: inline scripts and styles, no external files, no network.';

export function gamesSubject(runtime: BrowserRuntime, task: GameTask, checks?: GameChecks): GamesSubject {
  const solveMessages = (): ChatMessage[] => [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `${task.prompt.trim()}\n\n${FORM}` },
  ];
  return {
    task,
    pack: gamesPack(runtime),
    ...(checks ? { checks } : {}),
    solveMessages,
    repairMessages: (reply, feedback) => revision(solveMessages(), reply, feedback),
    feedback: gamesFeedback,
    noArtifact: `Your reply has no HTML document. ${FORM}`,
  };
}

/** The failing case a model reads: what was played, what was expected, what the page showed. */
export function gamesFeedback(report: Report): { text: string; fact: FailureFact } | undefined {
  const fact = report.failures.find((f) => f.shrunk) ?? report.failures[0];
  if (!fact) return undefined;
  const lines =
    fact.input === null
      ? [`Your game fails before it can be played: ${fact.message}`]
      : [
          `Your game fails the test "${fact.check.replace(/^plan case "|"$/g, '')}"${fact.shrunk ? ' (cut to the fewest steps that still show it)' : ''}.`,
          '',
          `Played, from a fresh load: ${fact.input}`,
          ...(fact.expected !== null ? [`Expected: ${fact.expected}`] : []),
          ...(fact.actual !== null ? [`The page: ${fact.actual}`] : []),
          '',
          fact.message,
        ];
  lines.push('', `Fix the game so that it follows the task in every case, not only this one. ${FORM}`);
  return { text: lines.join('\n'), fact };
}
