/**
 * Writes a tiny random-weight GGUF file (llama architecture, one layer, n_embd 32, a
 * byte-fallback SentencePiece vocabulary of 354 tokens; about 140 KB) that node-llama-cpp
 * loads in milliseconds. Its text is nonsense, but tokenization, sampling, seeds, grammars
 * and log-probabilities are real — enough to test the local backend without downloading
 * weights. Recipe: ../shared/research/anchors-generation.md §3.4.
 */
import { writeFileSync } from 'node:fs';
import { seededRandom } from '../../core/random.js';

const N_EMBD = 32;
const N_FF = 64;
const N_HEAD = 4;
const ALIGNMENT = 32;

const enum ValueType {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  STRING = 8,
  ARRAY = 9,
}
const TENSOR_F32 = 0;
const TOKEN_NORMAL = 1;
const TOKEN_UNKNOWN = 2;
const TOKEN_CONTROL = 3;
const TOKEN_BYTE = 6;

type MetadataValue =
  | { type: ValueType.UINT32 | ValueType.INT32 | ValueType.FLOAT32; value: number }
  | { type: ValueType.STRING; value: string }
  | {
      type: ValueType.ARRAY;
      elementType: ValueType.STRING | ValueType.FLOAT32 | ValueType.INT32;
      values: ReadonlyArray<string | number>;
    };

/** Little-endian byte writer. */
class Writer {
  private readonly parts: Buffer[] = [];
  size = 0;
  private push(buffer: Buffer) {
    this.parts.push(buffer);
    this.size += buffer.length;
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  string(s: string) {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  bytes(b: Buffer) {
    this.push(b);
  }
  pad(alignment: number) {
    const extra = (alignment - (this.size % alignment)) % alignment;
    if (extra) this.push(Buffer.alloc(extra));
  }
  toBuffer() {
    return Buffer.concat(this.parts);
  }
}

function scalar(w: Writer, type: ValueType, value: string | number) {
  if (type === ValueType.STRING) w.string(value as string);
  else if (type === ValueType.UINT32) w.u32(value as number);
  else if (type === ValueType.INT32) w.i32(value as number);
  else w.f32(value as number);
}

function writeValue(w: Writer, v: MetadataValue) {
  w.u32(v.type);
  if (v.type === ValueType.ARRAY) {
    w.u32(v.elementType);
    w.u64(v.values.length);
    for (const element of v.values) scalar(w, v.elementType, element);
  } else {
    scalar(w, v.type, v.value);
  }
}

export interface TinyGgufOptions {
  /** Seeds the weights (default 1). */
  readonly seed?: number;
  /** Default 4096: chat contexts need room for their system prompt. */
  readonly contextLength?: number;
  /** A Jinja chat template; without one node-llama-cpp uses a generic chat format. */
  readonly chatTemplate?: string;
  /**
   * Bigger shapes, for benchmarks where prefill must cost what it costs a real model (default:
   * 1 layer of width 32, a 4 × wider feed-forward, 4 heads; the width must divide by the heads).
   */
  readonly shape?: { readonly layers: number; readonly width: number; readonly heads: number };
}

export function tinyVocabulary(): { tokens: string[]; types: number[]; scores: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(TOKEN_BYTE);
  }
  tokens.push('\u2581');
  types.push(TOKEN_NORMAL);
  for (let code = 0x21; code <= 0x7e; code++) {
    tokens.push(String.fromCharCode(code));
    types.push(TOKEN_NORMAL);
  }
  return { tokens, types, scores: tokens.map((_, i) => -i) };
}

/** Writes the model to `path` and returns its size in bytes. */
export function writeTinyGguf(path: string, options: TinyGgufOptions = {}): number {
  const { layers, width, heads } = options.shape ?? { layers: 1, width: N_EMBD, heads: N_HEAD };
  const ff = width === N_EMBD ? N_FF : width * 4;
  const vocab = tinyVocabulary();
  const n = vocab.tokens.length;
  const metadata: Array<[string, MetadataValue]> = [
    ['general.architecture', { type: ValueType.STRING, value: 'llama' }],
    ['general.name', { type: ValueType.STRING, value: 'crucible-tiny-random' }],
    ['general.alignment', { type: ValueType.UINT32, value: ALIGNMENT }],
    ['llama.context_length', { type: ValueType.UINT32, value: options.contextLength ?? 4096 }],
    ['llama.embedding_length', { type: ValueType.UINT32, value: width }],
    ['llama.block_count', { type: ValueType.UINT32, value: layers }],
    ['llama.feed_forward_length', { type: ValueType.UINT32, value: ff }],
    ['llama.attention.head_count', { type: ValueType.UINT32, value: heads }],
    ['llama.attention.head_count_kv', { type: ValueType.UINT32, value: heads }],
    ['llama.rope.dimension_count', { type: ValueType.UINT32, value: width / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: ValueType.FLOAT32, value: 1e-5 }],
    ['tokenizer.ggml.model', { type: ValueType.STRING, value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: ValueType.ARRAY, elementType: ValueType.STRING, values: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: ValueType.ARRAY, elementType: ValueType.FLOAT32, values: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: ValueType.ARRAY, elementType: ValueType.INT32, values: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: ValueType.UINT32, value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: ValueType.UINT32, value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: ValueType.UINT32, value: 2 }],
  ];
  if (options.chatTemplate)
    metadata.push(['tokenizer.chat_template', { type: ValueType.STRING, value: options.chatTemplate }]);

  // Shapes in ggml order: the first dimension is the contiguous one.
  const tensors: Array<{ name: string; dims: number[]; norm?: boolean }> = [
    { name: 'token_embd.weight', dims: [width, n] },
    { name: 'output_norm.weight', dims: [width], norm: true },
    { name: 'output.weight', dims: [width, n] },
  ];
  for (let layer = 0; layer < layers; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      { name: `${blk}.attn_norm.weight`, dims: [width], norm: true },
      { name: `${blk}.attn_q.weight`, dims: [width, width] },
      { name: `${blk}.attn_k.weight`, dims: [width, width] },
      { name: `${blk}.attn_v.weight`, dims: [width, width] },
      { name: `${blk}.attn_output.weight`, dims: [width, width] },
      { name: `${blk}.ffn_norm.weight`, dims: [width], norm: true },
      { name: `${blk}.ffn_gate.weight`, dims: [width, ff] },
      { name: `${blk}.ffn_up.weight`, dims: [width, ff] },
      { name: `${blk}.ffn_down.weight`, dims: [ff, width] },
    );
  }

  // The same seed writes the same file.
  const next = seededRandom(options.seed ?? 1);
  const data = new Writer();
  const offsets: number[] = [];
  for (const tensor of tensors) {
    data.pad(ALIGNMENT);
    offsets.push(data.size);
    const count = tensor.dims.reduce((a, b) => a * b, 1);
    const values = Buffer.alloc(count * 4);
    for (let i = 0; i < count; i++) values.writeFloatLE(tensor.norm ? 1 : (next() * 2 - 1) * 0.5, i * 4);
    data.bytes(values);
  }

  const head = new Writer();
  head.bytes(Buffer.from('GGUF', 'ascii'));
  head.u32(3);
  head.u64(tensors.length);
  head.u64(metadata.length);
  for (const [key, value] of metadata) {
    head.string(key);
    writeValue(head, value);
  }
  tensors.forEach((tensor, i) => {
    head.string(tensor.name);
    head.u32(tensor.dims.length);
    for (const dim of tensor.dims) head.u64(dim);
    head.u32(TENSOR_F32);
    head.u64(offsets[i]!);
  });
  head.pad(ALIGNMENT);
  const file = Buffer.concat([head.toBuffer(), data.toBuffer()]);
  writeFileSync(path, file);
  return file.length;
}
