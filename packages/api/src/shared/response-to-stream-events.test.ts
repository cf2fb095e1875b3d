import { describe, expect, it } from 'vitest';
import type { AssistantResponse } from '../spec/response.js';
import { assembleMessage } from './message-assembler.js';
import { responseToStreamEvents } from './response-to-stream-events.js';
import { createUsage } from './usage.js';

const response: AssistantResponse = {
  id: 'resp_1',
  model: 'gpt-x',
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: createUsage({ inputTotal: 10, outputTotal: 5 }),
  message: {
    role: 'assistant',
    providerMetadata: { 'openai-responses': { responseId: 'resp_1' } },
    content: [
      {
        type: 'thinking',
        thinking: 'plan',
        signature: 's',
        providerMetadata: { 'openai-responses': { itemId: 'rs_1', encryptedContent: 'gAAA' } },
      },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Calling a tool.' },
      { type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'x' } },
      {
        type: 'tool_use',
        id: 'call_2',
        name: 'edit',
        input: {},
        inputError: { kind: 'invalid-json', message: 'bad', rawInput: '{' },
      },
    ],
  },
};

describe('responseToStreamEvents', () => {
  it('round-trips through assembleMessage unchanged', async () => {
    expect(await assembleMessage(responseToStreamEvents(response))).toEqual(response);
  });

  it('produces block-scoped events ending with message-end', () => {
    const events = responseToStreamEvents(response);
    expect(events[0]).toEqual({ type: 'message-start', id: 'resp_1', model: 'gpt-x' });
    expect(events.filter((event) => event.type === 'tool-call-end')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'message-end', finishReason: { unified: 'tool-calls' } });
  });
});
