import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicMessagesProvider, isSplicedStreamError, type StreamEvent } from '../../index.js';
import { collect, expectWellFormed } from './anthropic.test.helpers.js';

// A stream that carries two messages (the first cut off mid tool call) must never come back as one
// message: the loop would run a call the model never finished. Block ids never repeat in a message.

let mock: MockServer;
let folder: string;

beforeAll(async () => {
  mock = await startMockServer();
  folder = mkdtempSync(join(tmpdir(), 'anthropic-spliced-'));
});

afterAll(async () => {
  await mock.close();
  rmSync(folder, { recursive: true, force: true });
});

function start(id: string): object {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      usage: { input_tokens: 5, output_tokens: 1 },
    },
  };
}
const thinking = (index: number, text: string) => [
  { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: text } },
  { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: `sig-${text}` } },
  { type: 'content_block_stop', index },
];
const toolStart = (index: number, id: string) => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name: 'delete_file', input: {} },
});
const end = [
  { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
  { type: 'message_stop' },
];

function replayFile(name: string, events: object[]): string {
  const path = join(folder, `${name}.chunks.txt`);
  writeFileSync(path, `${events.map((event) => JSON.stringify(event)).join('\n')}\n`);
  return path;
}

async function stream(events: object[], name: string): Promise<StreamEvent[]> {
  mock.setScript({ steps: [{ replay: replayFile(name, events), protocol: 'anthropic' }], repeatLast: true });
  const provider = createAnthropicMessagesProvider({
    baseURL: mock.url,
    apiKey: 'sk-ant-spliced',
    retry: { maxRetries: 0 },
  });
  return collect(provider);
}

describe('anthropic-messages: two messages in one stream', () => {
  const spliced = [
    start('msg_first'),
    ...thinking(0, 'first'),
    toolStart(1, 'toolu_cut'),
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":"/tmp/a' } },
    start('msg_second'),
    ...thinking(0, 'second'),
    toolStart(1, 'toolu_whole'),
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":"/"}' } },
    { type: 'content_block_stop', index: 1 },
    ...end,
  ];

  it('ends the stream with a SplicedStreamError instead of merging the second message in', async () => {
    const events = await stream(spliced, 'spliced');
    expectWellFormed(events);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type !== 'error') return;
    expect(isSplicedStreamError(last.error)).toBe(true);
    expect(last.error).toMatchObject({
      reason: 'server',
      kind: 'second-message-start',
      firstMessageId: 'msg_first',
      secondMessageId: 'msg_second',
    });
    expect(events.some((event) => event.type === 'tool-call-end')).toBe(false);
    expect(events.filter((event) => event.type === 'thinking-start')).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('toolu_whole');
  });

  it('ignores a repeated message_start with the same id before any content', async () => {
    const events = await stream([start('msg_same'), start('msg_same'), ...thinking(0, 'only'), ...end], 'repeated');
    expectWellFormed(events);
    expect(events.at(-1)?.type).toBe('message-end');
  });

  it('refuses a second message_start with another id even before content', async () => {
    const events = await stream([start('msg_a'), start('msg_b'), ...thinking(0, 'x'), ...end], 'two-ids');
    const last = events.at(-1);
    expect(last?.type === 'error' && isSplicedStreamError(last.error)).toBe(true);
  });
});

describe('anthropic-messages: block ids are unique per message', () => {
  it('gives a reused wire index a new block id', async () => {
    const events = await stream(
      [
        start('msg_reuse'),
        ...thinking(0, 'one'),
        ...thinking(0, 'two'),
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'answer' } },
        { type: 'content_block_stop', index: 0 },
        ...end,
      ],
      'reuse',
    );
    expectWellFormed(events);
    const ids = events.flatMap((event) => (event.type.endsWith('-start') && 'blockId' in event ? [event.blockId] : []));
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('0');
  });
});
