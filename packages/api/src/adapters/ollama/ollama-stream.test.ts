import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../shared/message-assembler.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { expectWellFormed } from '../../test/stream-contract.js';
import { OllamaResponseMapper } from './ollama-stream.js';
import type { OllamaChatResponse } from './ollama-wire.js';

function run(lines: OllamaChatResponse[], requireDone = true): StreamEvent[] {
  const mapper = new OllamaResponseMapper({ providerId: 'ollama', model: 'm', idToken: 'tok' });
  const events: StreamEvent[] = [];
  for (const line of lines) events.push(...mapper.push(line));
  events.push(...mapper.end(requireDone));
  return events;
}

const done = { done: true, done_reason: 'stop', prompt_eval_count: 5, eval_count: 9 };

describe('OllamaResponseMapper', () => {
  it('switches blocks when thinking turns to content and back', async () => {
    const events = run([
      { model: 'm', message: { role: 'assistant', content: '', thinking: 'a' } },
      { message: { content: '', thinking: 'b' } },
      { message: { content: 'c' } },
      { message: { content: '', thinking: 'd' } },
      { message: { content: '' }, ...done },
    ]);
    expectWellFormed(events);
    expect((await assembleMessage(events)).message.content).toEqual([
      { type: 'thinking', thinking: 'ab' },
      { type: 'text', text: 'c' },
      { type: 'thinking', thinking: 'd' },
    ]);
  });

  it('reads several calls in one line, with object, text and missing arguments', async () => {
    const events = run([
      {
        message: {
          content: '',
          tool_calls: [
            { function: { name: 'a', arguments: { x: 1 } } },
            { id: 'dup', function: { name: 'b', arguments: '{"y": 2}' } },
            { id: 'dup', function: { name: 'c' } },
            { function: { name: 'd', arguments: '{broken' } },
          ],
        },
      },
      { message: { content: '' }, ...done },
    ]);
    expectWellFormed(events);
    const response = await assembleMessage(events);
    expect(response.message.content).toEqual([
      { type: 'tool_use', id: 'call_tok_0', name: 'a', input: { x: 1 } },
      { type: 'tool_use', id: 'dup', name: 'b', input: { y: 2 }, providerMetadata: { ollama: { toolCallId: 'dup' } } },
      { type: 'tool_use', id: 'dup_2', name: 'c', input: {}, providerMetadata: { ollama: { toolCallId: 'dup' } } },
      {
        type: 'tool_use',
        id: 'call_tok_3',
        name: 'd',
        input: {},
        inputError: expect.objectContaining({ kind: 'invalid-json', rawInput: '{broken' }),
      },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'stop' });
    expect(response.usage.output.total).toBe(9);
  });

  it('ends only after the done line when streaming; ignores lines after it', () => {
    expect(run([{ message: { content: 'cut' } }]).some((event) => event.type === 'message-end')).toBe(false);
    const events = run([{ message: { content: 'x' }, ...done }, { message: { content: 'late' } }]);
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('message-end');
  });

  it('an error line becomes one error event and nothing follows', () => {
    const events = run([
      { message: { content: 'Hi' } },
      { error: 'server busy, please try again.' },
      { message: { content: 'x' }, ...done },
    ]);
    expect(events.map((event) => event.type)).toEqual(['message-start', 'text-start', 'text-delta', 'error']);
  });
});
