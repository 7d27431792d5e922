/**
 * The JSON documents `crucible eval --json` writes (and the run store keeps): what was judged,
 * how, the summary and every sample. Built here, not in the command line, so a library user
 * who scores samples gets the same document the command writes.
 */
import { VERSION } from '../core/version.js';
import type { Harness } from '../domains/code/harness.js';
import type { SampleResult, Summary } from './evaluate.js';

export interface DocumentSource {
  readonly dataset: { readonly name: string; readonly path: string | null };
  /** What judged the samples: a Harness (functions), or the settings of another domain's engine. */
  readonly harness: Pick<Harness, 'workerCount' | 'limits' | 'time'> | { readonly settings: object };
  readonly sandbox: string | undefined;
  readonly interrupted: boolean;
}

function header(source: DocumentSource) {
  const { harness } = source;
  return {
    crucible: VERSION,
    created: new Date().toISOString(),
    dataset: source.dataset,
    settings:
      'settings' in harness
        ? { sandbox: source.sandbox, ...harness.settings }
        : { workers: harness.workerCount, sandbox: source.sandbox, limits: harness.limits, time: harness.time },
  };
}

/** Samples read from a file and judged. */
export function evalDocument(
  source: DocumentSource & {
    readonly samplesPath: string | null;
    readonly augment?: object;
    readonly labels?: { readonly compared: number; readonly agreement: number; readonly disagreements: number };
  },
  summary: Summary,
  samples: readonly SampleResult[],
) {
  const { dataset, settings, ...rest } = header(source);
  return {
    ...rest,
    dataset,
    samples_path: source.samplesPath,
    settings,
    ...(source.augment ? { augment: source.augment } : {}),
    summary: {
      ...summary,
      ...(source.interrupted ? { interrupted: true } : {}),
      ...(source.labels ? { labels: source.labels } : {}),
    },
    samples,
  };
}

/** Samples a strategy generated with a model, then judged; each sample says what the strategy did. */
export function modelEvalDocument(
  source: DocumentSource & { readonly generation: object },
  summary: Summary & { readonly strategy: object },
  samples: readonly (SampleResult & { readonly strategy: object })[],
) {
  const { dataset, settings, ...rest } = header(source);
  return {
    ...rest,
    dataset,
    generation: source.generation,
    settings,
    summary: { ...summary, ...(source.interrupted ? { interrupted: true } : {}) },
    samples,
  };
}
