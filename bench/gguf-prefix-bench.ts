/**
 * npm run bench:gguf-prefix — a local GGUF model's KV cache of the shared prompt prefix, kept
 * across the candidates of one task (the default) against evaluating every prompt whole
 * (`prefixCache: false`), both in the same run on the same model.
 *
 * The prompts are `graft`'s: a HumanEval task and the three closest skeletons of a library of
 * the other tasks' references (leave one out). Per task: CANDIDATES samples of that prompt
 * (seeds 1…), then one repair turn that extends the conversation with the first reply and a
 * failure. The model is generated (no weights can be downloaded): random weights, shaped so that
 * prefill and decoding cost what they cost a small real model on this CPU, with a vocabulary of
 * single characters, so a prompt of C characters is C tokens and a reply of REPLY_TOKENS tokens
 * is a patch's length in characters. Both modes run each task back to back, in alternating order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadDataset } from '../src/datasets/index.js';
import { createModel, type ChatMessage, type GenerateResult, type Model } from '../src/models/index.js';
import { writeTinyGguf } from '../src/models/testing/tiny-gguf.js';
import { skeletonsOf, type Skeleton } from '../src/skeletons/library.js';
import { SkeletonLibrary } from '../src/skeletons/library.js';
import { graftMessages, SKELETONS_SHOWN } from '../src/strategies/graft.js';

const ROOT = resolve(import.meta.dirname, '..');
const DATA = resolve(process.env.CRUCIBLE_DATASETS ?? join(ROOT, '../shared/datasets'));
const LIMIT = Number(process.env.BENCH_LIMIT ?? 6);
const CANDIDATES = Number(process.env.BENCH_CANDIDATES ?? 4);
const REPLY_TOKENS = Number(process.env.BENCH_REPLY_TOKENS ?? 160);
const SHAPE = { layers: 4, width: 256, heads: 4 };

const dir = mkdtempSync(join(tmpdir(), 'crucible-gguf-prefix-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const modelPath = join(dir, 'bench.gguf');
const bytes = writeTinyGguf(modelPath, { shape: SHAPE, contextLength: 8192 });

const dataset = await loadDataset(join(DATA, 'humaneval', 'HumanEval.jsonl.gz'));
// The references as skeletons: the prompt's shape is what matters here (bench:skeletons verifies them).
const library = SkeletonLibrary.open(join(dir, 'skeletons.jsonl'));
const skeletons: Skeleton[] = [];
for (const task of dataset.tasks)
  skeletons.push(
    ...(await skeletonsOf(task.reference!, 'python', {
      source: `dataset HumanEval:${task.id}`,
      checks: 'reference',
      only: task.entryPoint,
    })),
  );
await library.add(skeletons);

const entry = { spec: `gguf:${modelPath}`, gpu: false, threads: 1, contextSize: 8192 };
const open = (prefixCache: boolean): Promise<Model> =>
  createModel('bench', { config: { models: { bench: { ...entry, prefixCache } }, prices: {} }, env: {}, cache: 'off' });
const reusing = await open(true);
const whole = await open(false);

interface TaskRun {
  readonly ms: number;
  readonly inputTokens: number;
  readonly computedTokens: number;
}

async function runTask(model: Model, messages: ChatMessage[]): Promise<TaskRun> {
  const t0 = performance.now();
  const results: GenerateResult[] = [];
  const ask = (m: ChatMessage[], seed: number) =>
    model.generate({ messages: m, maxTokens: REPLY_TOKENS, temperature: 0.8, seed });
  for (let seed = 1; seed <= CANDIDATES; seed++) results.push(await ask(messages, seed));
  const repair: ChatMessage[] = [
    ...messages,
    { role: 'assistant', content: results[0]!.completions[0]!.text },
    { role: 'user', content: 'It fails on f([]): expected 0, got an IndexError. Patch again: BASE: last.' },
  ];
  results.push(await ask(repair, CANDIDATES + 1));
  const inputTokens = results.reduce((sum, r) => sum + r.usage.inputTokens, 0);
  const cached = results.reduce((sum, r) => sum + (r.usage.cachedInputTokens ?? 0), 0);
  return { ms: performance.now() - t0, inputTokens, computedTokens: inputTokens - cached };
}

const tasks = dataset.tasks.slice(0, LIMIT);
const runs = { reusing: [] as TaskRun[], whole: [] as TaskRun[] };
try {
  process.stdout.write(
    `model: generated, ${SHAPE.layers} layers of width ${SHAPE.width}, ${(bytes / 1e6).toFixed(1)} MB; ` +
      `${tasks.length} HumanEval tasks × (${CANDIDATES} candidates + 1 repair turn), ${REPLY_TOKENS} tokens per reply\n`,
  );
  for (const [i, task] of tasks.entries()) {
    const hits = library.search(`${task.entryPoint} ${task.prompt}`, {
      k: SKELETONS_SHOWN,
      exclude: (s) => s.source.endsWith(`:${task.id}`),
    });
    const messages = graftMessages(task, hits);
    const order = i % 2 === 0 ? (['reusing', 'whole'] as const) : (['whole', 'reusing'] as const);
    for (const mode of order) runs[mode].push(await runTask(mode === 'reusing' ? reusing : whole, messages));
    const last = (mode: 'reusing' | 'whole') => runs[mode].at(-1)!;
    process.stdout.write(
      `  ${task.id}: prompt ${(last('whole').inputTokens / (CANDIDATES + 1)).toFixed(0)} tokens; ` +
        `${(last('whole').ms / 1000).toFixed(2)} s whole, ${(last('reusing').ms / 1000).toFixed(2)} s reusing the prefix\n`,
    );
  }
  const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const row = (name: string, r: readonly TaskRun[]) =>
    `| ${name} | ${sum(r.map((x) => x.inputTokens)).toLocaleString('en')} | ${sum(r.map((x) => x.computedTokens)).toLocaleString('en')} | ${(median(r.map((x) => x.ms)) / 1000).toFixed(2)} s |\n`;
  process.stdout.write(
    `\n| prompts | input tokens | of them computed | median wall per task |\n|---|---|---|---|\n` +
      row('evaluated whole (prefixCache: false)', runs.whole) +
      row('shared prefix kept (default)', runs.reusing),
  );
  const ratios = runs.whole.map((w, i) => runs.reusing[i]!.ms / w.ms);
  process.stdout.write(
    `\nprefill computed: ×${(sum(runs.reusing.map((r) => r.computedTokens)) / sum(runs.whole.map((r) => r.computedTokens))).toFixed(3)}; ` +
      `wall per task, median of the paired ratios: ×${median(ratios).toFixed(3)} (kept / whole)\n`,
  );
} finally {
  await reusing.close();
  await whole.close();
}
