import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, type ProtocolId, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSplicedStreamError, type StreamEvent } from '../index.js';
import { expectWellFormed } from '../test/adapter-test-helpers.js';
import { ADAPTERS } from '../test/conformance-adapters.js';
import { fixture, fixturesSkipReason, providerStreamsDir } from '../test/fixtures.js';

// A recorded stream cut in the middle and followed by a whole second response (with its own id) is
// what a splicing proxy or a broken retry produces. Every adapter whose protocol carries a message
// or response id ends such a stream with a SplicedStreamError and never merges the two.

interface SplicedCase {
  adapter: string;
  protocol: ProtocolId;
  file: string;
  /** Rewrites the id in the second copy's lines. */
  renumber: (line: string) => string;
}

const cases: SplicedCase[] = [
  {
    adapter: 'openai-chat',
    protocol: 'openai-chat',
    file: 'openai-chat/alibaba-tool-call.chunks.txt',
    renumber: (line) => line.replace(/"id":"chatcmpl-[^"]+"/, '"id":"chatcmpl-second"'),
  },
  {
    adapter: 'openai-responses',
    protocol: 'openai-responses',
    file: 'openai-responses/openai-custom-tool.1.chunks.txt',
    renumber: (line) => line.replaceAll('resp_custom_tool_test_001', 'resp_second'),
  },
  {
    adapter: 'gemini',
    protocol: 'gemini',
    file: 'google-gemini/google-reasoning-gemini3.chunks.txt',
    renumber: (line) => line.replace(/"responseId":"[^"]+"/, '"responseId":"second-response"'),
  },
  {
    adapter: 'cohere-v2',
    protocol: 'cohere',
    file: 'cohere-v2/cohere-tool-call.chunks.txt',
    renumber: (line) => line.replace(/^\{"id":"[^"]+"/, '{"id":"second-message"'),
  },
];

describe.skipIf(providerStreamsDir === undefined)(`spliced streams (${fixturesSkipReason} when absent)`, () => {
  let mock: MockServer;
  let folder: string;

  beforeAll(async () => {
    mock = await startMockServer();
    folder = mkdtempSync(join(tmpdir(), 'spliced-streams-'));
  });

  afterAll(async () => {
    await mock.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it.each(cases)('$adapter: a second response after content ends the stream with a typed error', async (entry) => {
    const lines = readFileSync(fixture(entry.file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    const cut = Math.max(1, Math.floor(lines.length / 2));
    const spliced = [...lines.slice(0, cut), ...lines.map(entry.renumber)];
    const path = join(folder, `${entry.adapter}.chunks.txt`);
    writeFileSync(path, `${spliced.join('\n')}\n`);
    mock.setScript({ steps: [{ replay: path, protocol: entry.protocol }], repeatLast: true });
    const adapter = ADAPTERS.find((candidate) => candidate.name === entry.adapter);
    if (adapter === undefined) throw new Error(`no adapter ${entry.adapter}`);
    const provider = adapter.create(mock.url, { retry: { maxRetries: 0 } });
    const events: StreamEvent[] = [];
    for await (const event of provider.streamMessage({
      model: 'spliced-model',
      maxOutputTokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    }))
      events.push(event);
    expectWellFormed(events);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' && isSplicedStreamError(last.error)).toBe(true);
    expect(events.some((event) => event.type === 'message-end')).toBe(false);
  });
});
