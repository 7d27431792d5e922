/** Shared set-up for the model tests: a fake server and a model on it with its own cache folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_CONFIG, type CrucibleConfig } from '../src/models/config.js';
import { createModel, type ModelOptions } from '../src/models/model.js';
import { startFakeOpenAIServer, type FakeOpenAIServer, type FakeServerOptions } from '../src/models/testing/fake-openai-server.js';
import type { Model } from '../src/models/types.js';

export interface Fixture {
  readonly server: FakeOpenAIServer;
  readonly cacheDir: string;
  readonly spec: string;
  model(options?: ModelOptions): Promise<Model>;
  close(): Promise<void>;
}

export async function fixture(serverOptions: FakeServerOptions = {}, config: CrucibleConfig = EMPTY_CONFIG): Promise<Fixture> {
  const server = await startFakeOpenAIServer(serverOptions);
  const cacheDir = mkdtempSync(join(tmpdir(), 'crucible-models-'));
  const spec = `${server.url}#fake-model`;
  return {
    server,
    cacheDir,
    spec,
    model: (options = {}) => createModel(spec, { config, env: {}, cacheDir, retry: { baseDelayMs: 5 }, ...options }),
    close: async () => {
      await server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

export const user = (content: string) => [{ role: 'user' as const, content }];
