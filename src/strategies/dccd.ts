/**
 * `dccd` (draft, then constrained decode): the model first drafts freely — reasoning and
 * code, unconstrained, so the constraint does not cost it quality — and then writes the
 * final answer as `{"code": "..."}`, conditioned on its draft, under a JSON schema (the
 * endpoint's structured output) or, for a local GGUF model, a GBNF grammar the decoder
 * enforces token by token. The code is judged on the visible checks.
 */
import { z } from 'zod';
import { codeOf } from '../domains/code/index.js';
import { draftMessages, finalAnswerMessages } from './prompts.js';
import { Session } from './session.js';
import { codeOnly } from './subject.js';
import type { Strategy } from './types.js';

export const CodeSchema = z.object({ code: z.string() });

/** `{"code": "<a JSON string>"}` and nothing else. */
export const CODE_JSON_GBNF = String.raw`root ::= "{\"code\": \"" char* "\"}"
char ::= [^"\\\x00-\x1f] | "\\" (["\\/bfnrt] | "u" hex hex hex hex)
hex ::= [0-9a-fA-F]
`;

export const dccd: Strategy = async (subject, context) => {
  const { task } = codeOnly(subject, 'dccd');
  const session = await Session.open(subject, context);
  const { model } = context;
  const maxTokens = context.options?.maxTokens;
  return session.run(async () => {
    const draft = await session.ask(draftMessages(task), {
      label: 'draft',
      parent: null,
      temperature: context.options?.temperature ?? 0.7,
      ...(maxTokens ? { maxTokens } : {}),
    });
    const draftText = draft.completions[0]?.text ?? '';
    const final = await session.ask(finalAnswerMessages(task, draftText), {
      label: 'final',
      parent: draft.eventId,
      temperature: 0,
      output: { schema: CodeSchema, name: 'answer', description: 'the final program' },
      ...(model.kind === 'gguf' ? { grammar: CODE_JSON_GBNF } : {}),
      ...(maxTokens ? { maxTokens } : {}),
    });
    const completion = final.completions[0];
    const structured = (completion?.value as z.infer<typeof CodeSchema> | undefined)?.code;
    let code = structured;
    let parent = final.eventId;
    if (code === undefined) {
      // The constrained answer did not validate (a cut-off reply): fall back to the draft's code, and say so.
      code = codeOf(task, draftText);
      parent = session.decision(
        'fallback',
        `the final answer is not {"code": ...} (${completion?.outputError ?? 'no reply'}); using the code in the draft`,
        final.eventId,
        'final',
      );
    }
    if (code === undefined)
      return session.conclude(undefined, undefined, 'neither the final answer nor the draft holds code');
    const judged = await session.judgeReply(code, parent, structured !== undefined ? 'final' : 'draft', {
      shrink: false,
    });
    const why = judged
      ? `the program fails ${judged.report.failures[0]?.check ?? judged.report.noVerdict ?? 'a check'}`
      : 'the answer holds no code';
    return session.conclude(judged, judged, why);
  });
};
