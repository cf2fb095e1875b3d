import { describe, expect, it } from 'vitest';
import { mapConverseResponse } from './bedrock-response.js';

describe('mapConverseResponse', () => {
  it('maps every block kind, as received, with unique ids and checked inputs', () => {
    const response = mapConverseResponse(
      {
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'hmm', signature: 'sig' } } },
              { reasoningContent: { redactedContent: 'QUJD' } },
              { text: 'Hi' },
              { toolUse: { toolUseId: 'x', name: 'a', input: { n: 1 } } },
              { toolUse: { toolUseId: 'x', name: 'b', input: '{"cut":' } },
              { toolUse: { name: 'c' } },
              { toolUse: { toolUseId: 'y', name: 'd', input: [1, 2] } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 5, outputTokens: 6, cacheReadInputTokens: 7 },
        metrics: { latencyMs: 8 },
      },
      { model: 'm', requestId: 'r' },
    );
    expect(response.id).toBe('r');
    expect(response.model).toBe('m');
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'redacted_thinking', data: 'QUJD' },
      { type: 'text', text: 'Hi' },
      { type: 'tool_use', id: 'x', name: 'a', input: { n: 1 } },
      {
        type: 'tool_use',
        id: 'x_2',
        name: 'b',
        input: {},
        inputError: expect.objectContaining({ kind: 'invalid-json', rawInput: '{"cut":' }),
      },
      { type: 'tool_use', id: 'call_5', name: 'c', input: {} },
      {
        type: 'tool_use',
        id: 'y',
        name: 'd',
        input: {},
        inputError: expect.objectContaining({ kind: 'not-an-object' }),
      },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    expect(response.usage.input).toEqual({ total: 12, noCache: 5, cacheRead: 7, cacheWrite: 0 });
    expect(response.message.providerMetadata).toEqual({ bedrock: { metrics: { latencyMs: 8 } } });
  });

  it('survives an empty response', () => {
    const response = mapConverseResponse({}, { model: 'm' });
    expect(response.message.content).toEqual([]);
    expect(response.finishReason).toEqual({ unified: 'other', raw: undefined });
    expect(response.id).toBeUndefined();
  });
});
