import { describe, expect, it } from 'vitest';
import { createLlmError } from '../spec/create-llm-error.js';
import type { StreamEvent } from '../spec/stream-event.js';
import { assembleMessage, MessageAssembler } from './message-assembler.js';
import { createUsage } from './usage.js';

const usage = createUsage({ inputTotal: 100, cacheRead: 60, outputTotal: 40, reasoning: 10 });

const events: StreamEvent[] = [
  { type: 'message-start', id: 'msg_1', model: 'claude-x', providerMetadata: { anthropic: { container: 'c1' } } },
  { type: 'thinking-start', blockId: '0', providerMetadata: { gemini: { part: 0 } } },
  { type: 'thinking-delta', blockId: '0', delta: 'Let me ' },
  { type: 'thinking-delta', blockId: '0', delta: 'think.' },
  { type: 'thinking-signature-delta', blockId: '0', delta: 'sig-' },
  { type: 'thinking-signature-delta', blockId: '0', delta: 'part2' },
  { type: 'thinking-end', blockId: '0', providerMetadata: { gemini: { thoughtSignature: 'ts1' } } },
  { type: 'redacted-thinking', blockId: '1', data: 'ENCRYPTED' },
  { type: 'text-start', blockId: '2' },
  { type: 'tool-call-start', blockId: 'call-a', toolCallId: 'toolu_a', toolName: 'read' },
  { type: 'text-delta', blockId: '2', delta: '  Reading ' },
  { type: 'tool-call-input-delta', blockId: 'call-a', delta: '{"path":' },
  { type: 'text-delta', blockId: '2', delta: 'the file.\n' },
  { type: 'tool-call-input-delta', blockId: 'call-a', delta: '"a.txt"}' },
  { type: 'text-end', blockId: '2' },
  { type: 'tool-call-end', blockId: 'call-a', toolCallId: 'toolu_a', toolName: 'read', input: { path: 'a.txt' } },
  { type: 'usage', usage: createUsage({ inputTotal: 1 }) },
  {
    type: 'message-end',
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    providerMetadata: { anthropic: { stopSequence: null } },
  },
];

describe('MessageAssembler', () => {
  it('builds the message in start order with text exactly as received and metadata merged', async () => {
    const response = await assembleMessage(events);
    expect(response).toEqual({
      id: 'msg_1',
      model: 'claude-x',
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage,
      message: {
        role: 'assistant',
        providerMetadata: { anthropic: { container: 'c1', stopSequence: null } },
        content: [
          {
            type: 'thinking',
            thinking: 'Let me think.',
            signature: 'sig-part2',
            providerMetadata: { gemini: { part: 0, thoughtSignature: 'ts1' } },
          },
          { type: 'redacted_thinking', data: 'ENCRYPTED' },
          { type: 'text', text: '  Reading the file.\n' },
          { type: 'tool_use', id: 'toolu_a', name: 'read', input: { path: 'a.txt' } },
        ],
      },
    });
  });

  it('lets a signature on thinking-end replace streamed pieces', () => {
    const assembler = new MessageAssembler();
    assembler.push({ type: 'thinking-start', blockId: 'x' });
    assembler.push({ type: 'thinking-signature-delta', blockId: 'x', delta: 'partial' });
    assembler.push({ type: 'thinking-end', blockId: 'x', signature: 'complete' });
    expect(assembler.toResponse().message.content).toEqual([{ type: 'thinking', thinking: '', signature: 'complete' }]);
  });

  it('keeps the parse error of a tool call so the loop can answer with an error result', () => {
    const assembler = new MessageAssembler();
    const inputError = { kind: 'invalid-json' as const, message: 'not JSON', rawInput: '{"a":' };
    assembler.push({ type: 'tool-call-start', blockId: 'c', toolCallId: 'call_1', toolName: 'edit' });
    assembler.push({
      type: 'tool-call-end',
      blockId: 'c',
      toolCallId: 'call_1',
      toolName: 'edit',
      input: {},
      inputError,
    });
    expect(assembler.toResponse().message.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'edit', input: {}, inputError },
    ]);
  });

  it('gives a partial message while streaming: open blocks, open tool calls parsed from deltas, reason other', () => {
    const assembler = new MessageAssembler();
    assembler.push({ type: 'text-delta', blockId: 'orphan', delta: 'no start event' });
    assembler.push({ type: 'tool-call-start', blockId: 'c', toolCallId: 'call_1', toolName: 'grep' });
    assembler.push({ type: 'tool-call-input-delta', blockId: 'c', delta: '{"pattern":"x"}' });
    assembler.push({ type: 'tool-call-start', blockId: 'd', toolCallId: 'call_2', toolName: 'grep' });
    assembler.push({ type: 'tool-call-input-delta', blockId: 'd', delta: '{"pat' });
    const partial = assembler.toResponse();
    expect(assembler.done).toBe(false);
    expect(partial.finishReason).toEqual({ unified: 'other', raw: 'incomplete' });
    expect(partial.usage).toEqual(createUsage());
    expect(partial.message.content).toMatchObject([
      { type: 'text', text: 'no start event' },
      { type: 'tool_use', id: 'call_1', input: { pattern: 'x' } },
      { type: 'tool_use', id: 'call_2', input: {}, inputError: { kind: 'invalid-json' } },
    ]);
  });

  it('records an error event, ignores events after it, and reports finish reason error', () => {
    const assembler = new MessageAssembler();
    const error = createLlmError({ reason: 'network', message: 'reset' });
    assembler.push({ type: 'text-delta', blockId: 't', delta: 'Hel' });
    assembler.push({ type: 'error', error });
    assembler.push({ type: 'text-delta', blockId: 't', delta: 'lo' });
    expect(assembler.done).toBe(true);
    expect(assembler.error).toBe(error);
    expect(assembler.toResponse()).toMatchObject({
      finishReason: { unified: 'error', raw: 'network' },
      message: { content: [{ type: 'text', text: 'Hel' }] },
    });
  });
});

describe('assembleMessage', () => {
  it('rejects with the error of an error event', async () => {
    const error = createLlmError({ reason: 'overloaded', message: 'busy' });
    await expect(assembleMessage([{ type: 'error', error }])).rejects.toBe(error);
  });

  it('rejects with a network error when the stream ends without message-end', async () => {
    async function* truncated(): AsyncGenerator<StreamEvent> {
      yield { type: 'message-start' };
      yield { type: 'text-delta', blockId: 't', delta: 'cut' };
    }
    await expect(assembleMessage(truncated())).rejects.toMatchObject({ reason: 'network' });
  });
});
