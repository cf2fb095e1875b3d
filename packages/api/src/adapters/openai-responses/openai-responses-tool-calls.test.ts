import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { OpenAIResponsesToolCalls } from './openai-responses-tool-calls.js';

describe('OpenAIResponsesToolCalls', () => {
  it('keeps call ids unique within the message: call_<index> when missing, _2 when repeated', () => {
    const calls = new OpenAIResponsesToolCalls(new Set(['f']));
    const out: StreamEvent[] = [];
    const ids = [
      calls.add({ type: 'function_call', call_id: 'call_1', name: 'f' }, 'a', 0, out).callId,
      calls.add({ type: 'function_call', call_id: 'call_1', name: 'f' }, 'b', 1, out).callId,
      calls.add({ type: 'function_call', call_id: 'call_1', name: 'f' }, 'c', 2, out).callId,
      calls.add({ type: 'function_call', name: 'f' }, 'd', 1, out).callId,
      calls.add({ type: 'function_call', call_id: '', name: 'f' }, 'e', 4, out).callId,
    ];
    expect(ids).toEqual(['call_1', 'call_1_2', 'call_1_3', 'call_1_4', 'call_4']);
  });

  it('streams function arguments as deltas and ends once with the parsed input or an input error', () => {
    const calls = new OpenAIResponsesToolCalls(new Set(['f']));
    const out: StreamEvent[] = [];
    const good = calls.add({ type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'f' }, 'fc_1', 0, out);
    calls.delta(good, '{"a":', out);
    calls.delta(good, '1}', out);
    calls.end(good, '{"a":1}', out);
    calls.end(good, '{"a":2}', out);
    const bad = calls.add({ type: 'function_call', call_id: 'c2', name: 'f' }, 'k2', 1, out);
    calls.end(bad, '{"a":', out);
    expect(out).toEqual([
      {
        type: 'tool-call-start',
        blockId: 'fc_1',
        toolCallId: 'c1',
        toolName: 'f',
        providerMetadata: { 'openai-responses': { itemId: 'fc_1' } },
      },
      { type: 'tool-call-input-delta', blockId: 'fc_1', delta: '{"a":' },
      { type: 'tool-call-input-delta', blockId: 'fc_1', delta: '1}' },
      { type: 'tool-call-end', blockId: 'fc_1', toolCallId: 'c1', toolName: 'f', input: { a: 1 } },
      { type: 'tool-call-start', blockId: 'k2', toolCallId: 'c2', toolName: 'f' },
      {
        type: 'tool-call-end',
        blockId: 'k2',
        toolCallId: 'c2',
        toolName: 'f',
        input: {},
        inputError: expect.objectContaining({ kind: 'invalid-json', rawInput: '{"a":' }),
      },
    ]);
  });

  it('streams no deltas for a custom tool and ends with its text as input.input', () => {
    const calls = new OpenAIResponsesToolCalls(new Set());
    const out: StreamEvent[] = [];
    const call = calls.add({ type: 'custom_tool_call', id: 'ctc', call_id: 'c', name: 'sql' }, 'ctc', 0, out);
    calls.delta(call, 'SELECT', out);
    calls.end(call, 'SELECT 1', out);
    expect(out.map((event) => event.type)).toEqual(['tool-call-start', 'tool-call-end']);
    expect(out[1]).toMatchObject({ input: { input: 'SELECT 1' } });
  });

  it('holds a parallel wrapper back and emits it as sent when it does not unwrap', () => {
    const calls = new OpenAIResponsesToolCalls(new Set(['weather']));
    const out: StreamEvent[] = [];
    const call = calls.add(
      { type: 'function_call', id: 'fc_p', call_id: 'cp', name: 'multi_tool_use.parallel' },
      'fc_p',
      0,
      out,
    );
    calls.delta(call, '{"tool_uses":[{"recipient_name":"functions.rm"}]}', out);
    expect(out).toEqual([]);
    calls.end(call, '{"tool_uses":[{"recipient_name":"functions.rm"}]}', out);
    expect(out.map((event) => event.type)).toEqual(['tool-call-start', 'tool-call-input-delta', 'tool-call-end']);
    expect(out[2]).toMatchObject({ toolName: 'multi_tool_use.parallel', toolCallId: 'cp' });
  });
});
