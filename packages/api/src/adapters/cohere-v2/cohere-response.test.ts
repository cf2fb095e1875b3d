import { describe, expect, it } from 'vitest';
import { mapCohereResponse } from './cohere-response.js';

describe('mapCohereResponse', () => {
  it('orders thinking, the tool plan, text and tool calls as a stream of them arrives', () => {
    const response = mapCohereResponse(
      {
        id: 'r1',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'visible' },
            { type: 'thinking', thinking: 'hidden' },
          ],
          tool_plan: 'plan',
          tool_calls: [
            { id: 'c', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
            { id: 'c', type: 'function', function: { name: 'b', arguments: '' } },
            { type: 'function', function: { name: 'c', arguments: '[1]' } },
          ],
        },
        usage: { tokens: { input_tokens: 10, output_tokens: 5 }, cached_tokens: 4, billed_units: { input_tokens: 6 } },
      },
      'command-a',
    );
    expect(response).toMatchObject({ id: 'r1', model: 'command-a' });
    expect(response.message.content).toEqual([
      { type: 'thinking', thinking: 'hidden' },
      { type: 'thinking', thinking: 'plan', providerMetadata: { cohere: { toolPlan: true } } },
      { type: 'text', text: 'visible' },
      { type: 'tool_use', id: 'c', name: 'a', input: { x: 1 } },
      { type: 'tool_use', id: 'c_2', name: 'b', input: {} },
      {
        type: 'tool_use',
        id: 'call_2',
        name: 'c',
        input: {},
        inputError: expect.objectContaining({ kind: 'not-an-object' }),
      },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'TOOL_CALL' });
    expect(response.usage.input).toEqual({ total: 10, noCache: 6, cacheRead: 4, cacheWrite: 0 });
    expect(response.message.providerMetadata).toEqual({ cohere: { billed_units: { input_tokens: 6 } } });
  });

  it('survives an empty response', () => {
    const response = mapCohereResponse({}, 'm');
    expect(response.message).toEqual({ role: 'assistant', content: [] });
    expect(response.finishReason.unified).toBe('other');
  });
});
