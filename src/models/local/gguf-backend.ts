/**
 * Local GGUF models through node-llama-cpp (an optional dependency, imported on first use).
 * Decoding runs token by token on a context sequence, so grammars (GBNF or a JSON schema),
 * seeds and each token's probability are all available.
 */
import type { Backend, BackendCallOptions, BackendRequest, BackendResponse } from '../backend.js';
import { ModelConfigError } from '../errors.js';
import type { ResolvedModel } from '../resolve.js';
import type { ChatMessage, TokenLogprob } from '../types.js';
import { lintGbnf } from './gbnf-lint.js';
import { loadNodeLlamaCpp, type NodeLlamaCpp } from './node-llama-cpp.js';

type Llama = Awaited<ReturnType<NodeLlamaCpp['getLlama']>>;
type LlamaModel = Awaited<ReturnType<Llama['loadModel']>>;
type LlamaGrammar = Awaited<ReturnType<Llama['createGrammar']>>;
type ChatHistoryItem = import('node-llama-cpp').ChatHistoryItem;
type Token = import('node-llama-cpp').Token;

// One Llama (native library instance) per process and GPU setting: loading it takes seconds.
const llamas = new Map<string, Promise<Llama>>();

function llamaFor(lib: NodeLlamaCpp, gpu: boolean | undefined): Promise<Llama> {
  const key = String(gpu);
  let llama = llamas.get(key);
  if (!llama) {
    llama = lib.getLlama({ ...(gpu === false ? { gpu: false as const } : {}), build: 'never' });
    llamas.set(key, llama);
    llama.catch(() => llamas.delete(key));
  }
  return llama;
}

export async function createGgufBackend(resolved: ResolvedModel): Promise<Backend> {
  const lib = await loadNodeLlamaCpp();
  const entry = resolved.entry;
  const llama = await llamaFor(lib, entry?.gpu);
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: resolved.modelId });
  } catch (error) {
    throw new ModelConfigError(`cannot load ${resolved.modelId} as a GGUF model: ${(error as Error).message}`);
  }
  const context = await model.createContext({
    contextSize: entry?.contextSize ?? Math.min(4096, model.trainContextSize),
    sequences: 1,
    ...(entry?.threads ? { threads: entry.threads } : {}),
  });
  let sequence = context.getSequence();
  /**
   * Starts the sequence over. Not `clearHistory()`: in node-llama-cpp 3.21 erasing from the first
   * token leaves its KV cells behind, and each later prompt attends to them — slower every call
   * (1.5, 3.3, 5.7 s for the same prompt) and its text no longer what a fresh context writes.
   */
  const restart = () => {
    sequence.dispose();
    sequence = context.getSequence();
  };
  const chatWrapper = lib.resolveChatWrapper(model);

  async function grammarFor(request: BackendRequest): Promise<LlamaGrammar | undefined> {
    if (request.grammar) {
      const problems = lintGbnf(request.grammar);
      if (problems.length) {
        throw new ModelConfigError(
          `the grammar is invalid (node-llama-cpp would accept it and may generate nothing):\n${problems.map((p) => `  rule ${p.rule}: ${p.message}`).join('\n')}`,
        );
      }
      return llama.createGrammar({ grammar: request.grammar });
    }
    if (request.responseFormat?.schema) {
      try {
        return await llama.createGrammarForJsonSchema(request.responseFormat.schema as never);
      } catch (error) {
        throw new ModelConfigError(
          `node-llama-cpp cannot turn the output schema into a grammar: ${(error as Error).message}`,
        );
      }
    }
    if (request.responseFormat) return lib.LlamaGrammar.getFor(llama, 'json');
    return undefined;
  }

  async function generate(request: BackendRequest, options: BackendCallOptions): Promise<BackendResponse> {
    if (request.n !== 1) throw new Error('the gguf backend makes one completion per call');
    if (request.tools) throw new ModelConfigError(`${resolved.spec} does not take tool definitions`);
    const grammar = await grammarFor(request);
    const state = chatWrapper.generateContextState({ chatHistory: chatHistory(request.messages) });
    const prompt = state.contextText.tokenize(model.tokenizer);
    const stops = [
      ...(request.stop ?? []),
      ...plainTriggers(grammar?.stopGenerationTriggers ?? []),
      ...plainTriggers(state.stopGenerationTriggers),
    ];
    const kept = entry?.prefixCache === false ? 0 : await keepSharedPrefix(sequence, prompt);
    if (kept === 0) restart();

    const generated: Token[] = [];
    const confidences: number[] = [];
    let text = '';
    let emitted = 0;
    let finishReason = 'stop';
    const evaluation = sequence.evaluateWithMetadata(
      prompt.slice(kept),
      { confidence: true },
      {
        temperature: request.temperature ?? 0,
        ...(request.topP !== undefined ? { topP: request.topP } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        ...(grammar ? { grammarEvaluationState: new lib.LlamaGrammarEvaluationState({ model, grammar }) } : {}),
      },
    );
    for await (const { token, confidence } of evaluation) {
      options.signal.throwIfAborted();
      generated.push(token);
      confidences.push(confidence);
      text = model.detokenize(generated);
      const cut = firstStop(text, stops);
      if (cut !== undefined) {
        text = text.slice(0, cut);
        break;
      }
      if (options.onText) {
        const safe = text.length - heldBack(text, stops);
        if (safe > emitted) options.onText(text.slice(emitted, safe));
        emitted = Math.max(emitted, safe);
      }
      if (request.maxTokens !== undefined && generated.length >= request.maxTokens) {
        finishReason = 'length';
        break;
      }
    }
    options.signal.throwIfAborted();
    if (grammar?.trimWhitespaceSuffix) text = text.trimEnd();
    if (options.onText && text.length > emitted) options.onText(text.slice(emitted));
    if (request.grammar && text === '') {
      throw new ModelConfigError(
        'the grammar produced an empty string: check it (node-llama-cpp runs some invalid grammars without an error)',
      );
    }
    return {
      completions: [
        {
          text,
          toolCalls: [],
          finishReason,
          ...(request.logprobs ? { logprobs: tokenLogprobs(model, generated, confidences, text.length) } : {}),
        },
      ],
      usage: { inputTokens: prompt.length, outputTokens: generated.length, cachedInputTokens: kept },
    };
  }

  return {
    kind: 'gguf',
    modelId: resolved.modelId,
    capabilities: resolved.capabilities,
    generate,
    close: async () => {
      await context.dispose();
      await model.dispose();
    },
  };
}

type Sequence = ReturnType<Awaited<ReturnType<LlamaModel['createContext']>>['getSequence']>;

/**
 * Keeps the KV cache of the prefix this prompt shares with what the sequence holds (the call
 * before: its prompt and its reply), erases the rest, and returns how many tokens were kept (0:
 * none, and the sequence must start over).
 * Candidates of one task share their whole prompt, a repair turn extends the conversation before
 * it, and a graft prompt starts with the same skeletons: their prefill is not computed again. The
 * prompt's last token is always evaluated again: its logits start the generation.
 */
async function keepSharedPrefix(sequence: Sequence, prompt: readonly Token[]): Promise<number> {
  const kept = Math.min(sequence.compareContextTokens([...prompt]).firstDifferentIndex, prompt.length - 1);
  if (kept <= 0) return 0;
  if (kept < sequence.nextTokenIndex)
    await sequence.eraseContextTokenRanges([{ start: kept, end: sequence.nextTokenIndex }]);
  return kept;
}

function chatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  // Tool turns as text: the agent reads a local model's calls from structured output, not native tools.
  const items: ChatHistoryItem[] = messages.map((m) =>
    m.role === 'system'
      ? { type: 'system', text: m.content }
      : m.role === 'user'
        ? { type: 'user', text: m.content }
        : m.role === 'tool'
          ? { type: 'user', text: `Result of ${m.toolName ?? 'the tool'}:\n${m.content}` }
          : { type: 'model', response: [m.content] },
  );
  // The model's turn to speak: an empty response at the end.
  items.push({ type: 'model', response: [] });
  return items;
}

/** Stop triggers that are plain text (special tokens end generation by themselves). */
function plainTriggers(triggers: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const trigger of triggers) {
    const values =
      (trigger as { values?: readonly unknown[] }).values ?? (Array.isArray(trigger) ? trigger : [trigger]);
    if (values.length > 0 && values.every((v) => typeof v === 'string')) out.push(values.join(''));
  }
  return out.filter((s) => s.length > 0);
}

function firstStop(text: string, stops: readonly string[]): number | undefined {
  let first: number | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && (first === undefined || at < first)) first = at;
  }
  return first;
}

/** How many trailing characters could be the start of a stop string (not yet safe to stream). */
function heldBack(text: string, stops: readonly string[]): number {
  let held = 0;
  for (const stop of stops) {
    for (let k = Math.min(stop.length - 1, text.length); k > held; k--) {
      if (text.endsWith(stop.slice(0, k))) {
        held = k;
        break;
      }
    }
  }
  return held;
}

/** One entry per generated token that is part of the returned text. */
function tokenLogprobs(
  model: LlamaModel,
  tokens: readonly Token[],
  confidences: readonly number[],
  textLength: number,
): TokenLogprob[] {
  const out: TokenLogprob[] = [];
  let length = 0;
  for (let i = 0; i < tokens.length; i++) {
    const piece = model.detokenize([tokens[i]!]);
    if (length + piece.length > textLength) break;
    length += piece.length;
    out.push({ token: piece, logprob: Math.log(confidences[i]!) });
  }
  return out;
}
