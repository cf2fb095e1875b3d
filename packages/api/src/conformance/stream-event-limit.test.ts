import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, type ProtocolId, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_STREAM_EVENT_LENGTH, isStreamEventTooLargeError, type StreamEvent } from '../index.js';
import { ADAPTERS } from '../test/conformance-adapters.js';

// A server that sends one line longer than the default cap (32 MiB) ends the stream with a typed,
// non-retried error on the SSE and NDJSON adapters, with their defaults, through the public factories.

const huge = 'x'.repeat(DEFAULT_MAX_STREAM_EVENT_LENGTH + 1024);
if (huge.length <= DEFAULT_MAX_STREAM_EVENT_LENGTH) throw new Error('the oversized line must be over the cap');

const cases: Array<{ adapter: string; protocol: ProtocolId; lines: string[] }> = [
  {
    adapter: 'anthropic-messages',
    protocol: 'anthropic',
    lines: [
      JSON.stringify({
        type: 'message_start',
        message: {
          id: 'msg_big',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      }),
      JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'start ' } }),
      `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${huge}"}}`,
      JSON.stringify({ type: 'message_stop' }),
    ],
  },
  {
    adapter: 'ollama',
    protocol: 'ollama',
    lines: [
      JSON.stringify({
        model: 'm',
        created_at: '2026-01-01T00:00:00Z',
        message: { role: 'assistant', content: 'start ' },
        done: false,
      }),
      `{"model":"m","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"${huge}"},"done":false}`,
      JSON.stringify({
        model: 'm',
        created_at: '2026-01-01T00:00:00Z',
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
      }),
    ],
  },
];

let mock: MockServer;
let folder: string;

beforeAll(async () => {
  mock = await startMockServer();
  folder = mkdtempSync(join(tmpdir(), 'stream-event-limit-'));
});

afterAll(async () => {
  await mock.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('one oversized stream line', () => {
  it.each(cases)('$adapter: ends the stream with StreamEventTooLargeError, never retried', async (entry) => {
    const path = join(folder, `${entry.adapter}.chunks.txt`);
    writeFileSync(path, `${entry.lines.join('\n')}\n`);
    mock.setScript({ steps: [{ replay: path, protocol: entry.protocol }], repeatLast: true });
    mock.clearRequests();
    const adapter = ADAPTERS.find((candidate) => candidate.name === entry.adapter);
    if (adapter === undefined) throw new Error(`no adapter ${entry.adapter}`);
    const events: StreamEvent[] = [];
    for await (const event of adapter
      .create(mock.url)
      .streamMessage({ model: 'm', maxOutputTokens: 64, messages: [{ role: 'user', content: 'Hi' }] })) {
      events.push(event);
    }
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' && isStreamEventTooLargeError(last.error)).toBe(true);
    expect(events.some((event) => event.type === 'message-end')).toBe(false);
    expect(mock.requests).toHaveLength(1);
  });
});
