import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import { anthropicMessageToStreamEvents } from './anthropic-message-to-events.js';
import { anthropicMessageSchema } from './anthropic-wire.js';

const options = { errorContext: { providerId: 'anthropic' } };

describe('anthropicMessageToStreamEvents', () => {
  it('replays a whole message as block events that assemble back to its content', async () => {
    const message = anthropicMessageSchema.parse({
      id: 'msg_1',
      model: 'claude-x',
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Think', signature: 'sig' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'Answer', citations: null },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } },
        { type: 'web_search_tool_result', tool_use_id: 'srv', content: [] },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 3, cache_read_input_tokens: 7, cache_creation_input_tokens: 0, output_tokens: 11 },
    });
    const events = anthropicMessageToStreamEvents(message, options);
    expect(events.map((event) => event.type)).toEqual([
      'message-start',
      'usage',
      'thinking-start',
      'thinking-delta',
      'thinking-signature-delta',
      'thinking-end',
      'redacted-thinking',
      'text-start',
      'text-delta',
      'text-end',
      'tool-call-start',
      'tool-call-end',
      'message-end',
    ]);
    const response = await assembleMessage(events);
    expect(response).toEqual({
      id: 'msg_1',
      model: 'claude-x',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Think', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Answer' },
          { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } },
        ],
        providerMetadata: {
          anthropic: {
            serverBlocks: [{ position: 4, block: { type: 'web_search_tool_result', tool_use_id: 'srv', content: [] } }],
          },
        },
      },
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: {
        input: { total: 10, noCache: 3, cacheRead: 7, cacheWrite: 0 },
        output: { total: 11, text: 11, reasoning: 0 },
      },
    });
  });

  it('ends an empty message with its stop reason', () => {
    const events = anthropicMessageToStreamEvents(
      anthropicMessageSchema.parse({ content: [], stop_reason: 'end_turn' }),
      options,
    );
    expect(events.map((event) => event.type)).toEqual(['message-start', 'message-end']);
  });
});
