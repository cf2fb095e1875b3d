import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnthropicMessagesSettings, createAnthropicMessagesProvider, type LlmProvider } from '@boxagnts/api';
import { type MockScript, type MockServer, startMockServer } from '@boxagnts/testkit';
import type { QueryOptions } from '../config.js';
import type { QueryEvent } from '../events.js';
import { runQuery } from '../loop.js';
import type { QueryOutcome } from '../outcome.js';

/** A mock server playing the model over the Anthropic protocol, a provider pointed at it, and a temp root. */
export interface Harness {
  mock: MockServer;
  provider: LlmProvider;
  root: string;
  close(): Promise<void>;
}

export async function startHarness(
  script: MockScript,
  providerId = 'anthropic',
  settings: Partial<AnthropicMessagesSettings> = {},
): Promise<Harness> {
  const mock = await startMockServer({ script });
  const provider = createAnthropicMessagesProvider({
    providerId,
    baseURL: mock.url,
    apiKey: 'test-key',
    retry: { maxRetries: 0 },
    ...settings,
  });
  const root = await mkdtemp(join(tmpdir(), 'boxagnts-query-'));
  return {
    mock,
    provider,
    root,
    async close() {
      await mock.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Runs a query to its end and returns the events and the outcome. */
export async function collect(options: QueryOptions): Promise<{ events: QueryEvent[]; outcome: QueryOutcome }> {
  const events: QueryEvent[] = [];
  const run = runQuery(options);
  for (;;) {
    const next = await run.next();
    if (next.done) return { events, outcome: next.value };
    events.push(next.value);
  }
}
