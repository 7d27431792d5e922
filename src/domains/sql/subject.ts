/** An SQL task as a strategy's subject: the query is written, judged and repaired through the SQL pack. */
import { sqlPack, type SqlChecks, type SqlTask } from './index.js';
import { describeDatabase, dialectName, hasInstruction, sqlFeedback, sqlTaskText } from './prompt.js';
import type { ChatMessage } from '../../models/index.js';
import type { SqlRunner } from '../../runtimes/sql-pool.js';
import { revision, type Subject } from '../subject.js';

export type SqlSubject = Subject<SqlTask, SqlChecks>;

/** Reads the task's schema and a few rows for the prompt (through the runner's sandbox). */
export async function sqlSubject(runner: SqlRunner, task: SqlTask, checks?: SqlChecks): Promise<SqlSubject> {
  if (!hasInstruction(task))
    throw new Error(`SQL task ${task.id} has neither a question nor a query to fix: there is nothing to ask a model`);
  const database = await describeDatabase(runner, task);
  const system = `You are a careful SQL programmer. You write one correct ${dialectName(task)} query and nothing else.`;
  const solveMessages = (): ChatMessage[] => [
    { role: 'system', content: system },
    { role: 'user', content: sqlTaskText(task, database) },
  ];
  return {
    task,
    pack: sqlPack(runner),
    ...(checks ? { checks } : {}),
    solveMessages,
    repairMessages: (reply, feedback) => revision(solveMessages(), reply, feedback),
    feedback: sqlFeedback,
    noArtifact: 'Your reply has no query. Reply with one SELECT statement in one ```sql code block.',
  };
}
