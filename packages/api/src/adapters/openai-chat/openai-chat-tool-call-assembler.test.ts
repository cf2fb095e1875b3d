import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import { ToolCallAssembler } from './openai-chat-tool-call-assembler.js';
import type { ChatToolCallDelta } from './openai-chat-wire.js';

function assemble(fragments: ChatToolCallDelta[]): {
  events: StreamEvent[];
  ends: Array<Extract<StreamEvent, { type: 'tool-call-end' }>>;
} {
  let counter = 0;
  let contentClosed = 0;
  const assembler = new ToolCallAssembler(
    {
      nextBlockId: () => String(counter++),
      closeContentBlocks: () => {
        contentClosed += 1;
      },
    },
    'sfx',
  );
  const events: StreamEvent[] = [];
  for (const fragment of fragments) assembler.apply(fragment, events);
  assembler.closeAll(events);
  expect(contentClosed).toBe(assembler.count);
  return {
    events,
    ends: events.filter(
      (event): event is Extract<StreamEvent, { type: 'tool-call-end' }> => event.type === 'tool-call-end',
    ),
  };
}

describe('ToolCallAssembler', () => {
  it('draws a lazy id suffix once, at the first generated id, and never for calls with server ids', () => {
    let draws = 0;
    const suffix = () => {
      draws += 1;
      return `s${draws}`;
    };
    let counter = 0;
    const make = () =>
      new ToolCallAssembler({ nextBlockId: () => String(counter++), closeContentBlocks: () => undefined }, suffix);
    const events: StreamEvent[] = [];
    const withIds = make();
    withIds.apply({ index: 0, id: 'server', function: { name: 'f', arguments: '{}' } }, events);
    withIds.closeAll(events);
    expect(draws).toBe(0);
    const generated = make();
    generated.apply({ index: 0, function: { name: 'f', arguments: '{}' } }, events);
    generated.apply({ index: 1, function: { name: 'g', arguments: '{}' } }, events);
    generated.closeAll(events);
    expect(draws).toBe(1);
    const ids = events.filter((event) => event.type === 'tool-call-end').map((event) => event.toolCallId);
    expect(ids).toEqual(['server', 'call_1_s1', 'call_2_s1']);
  });

  it('joins argument pieces by index, whatever the interleaving', () => {
    const { ends } = assemble([
      { index: 0, id: 'a', function: { name: 'one', arguments: '{"x"' } },
      { index: 1, id: 'b', function: { name: 'two', arguments: '{"y":' } },
      { index: 0, function: { arguments: ':1}' } },
      { index: 1, function: { arguments: '2}' } },
    ]);
    expect(ends.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input }))).toEqual([
      { toolCallId: 'a', toolName: 'one', input: { x: 1 } },
      { toolCallId: 'b', toolName: 'two', input: { y: 2 } },
    ]);
  });

  it('takes the name from the first fragment that has one and ignores later "" or repeats', () => {
    const { ends } = assemble([
      { index: 0, id: 'a', function: { arguments: '' } },
      { index: 0, function: { name: 'late', arguments: '{}' } },
      { index: 0, function: { name: 'again', arguments: '' } },
    ]);
    expect(ends[0]?.toolName).toBe('late');
  });

  it('adopts an id that arrives after the first fragment; the start carried a generated one', () => {
    const { events, ends } = assemble([
      { index: 0, function: { name: 'f', arguments: '{' } },
      { index: 0, id: 'real', function: { arguments: '}' } },
    ]);
    expect(events[0]).toMatchObject({ type: 'tool-call-start', toolCallId: 'call_0_sfx' });
    expect(ends[0]?.toolCallId).toBe('real');
  });

  it('generates ids for calls that never get one', () => {
    const { ends } = assemble([
      { index: 0, function: { name: 'f', arguments: '{}' } },
      { index: 1, function: { name: 'g', arguments: '{}' } },
    ]);
    expect(ends.map((end) => end.toolCallId)).toEqual(['call_0_sfx', 'call_1_sfx']);
  });

  it('makes duplicate ids unique with _2, _3', () => {
    const { ends } = assemble([
      { index: 0, id: 'dup', function: { name: 'f', arguments: '{}' } },
      { index: 1, id: 'dup', function: { name: 'f', arguments: '{}' } },
      { index: 2, id: 'dup', function: { name: 'f', arguments: '{}' } },
    ]);
    expect(ends.map((end) => end.toolCallId)).toEqual(['dup', 'dup_2', 'dup_3']);
  });

  it('starts a new call when an index is reused with a different id, ending the previous one first', () => {
    const { events } = assemble([
      { index: 0, id: 'a', function: { name: 'f', arguments: '{"n":1}' } },
      { index: 0, id: 'b', function: { name: 'g', arguments: '{"n":2}' } },
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'tool-call-start',
      'tool-call-input-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-input-delta',
      'tool-call-end',
    ]);
  });

  it('without an index, follows the id, else the open call; a new name after arguments is a new call', () => {
    const { ends } = assemble([
      { id: 'a', function: { name: 'f', arguments: '{"k":' } },
      { function: { arguments: '1}' } },
      { function: { name: 'g', arguments: '{}' } },
      { id: 'a', function: { arguments: '' } },
    ]);
    expect(ends.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input }))).toEqual([
      { toolCallId: 'a', toolName: 'f', input: { k: 1 } },
      { toolCallId: 'call_1_sfx', toolName: 'g', input: {} },
    ]);
  });

  it('checks arguments a server sent already parsed', () => {
    const { events, ends } = assemble([
      { index: 0, id: 'a', function: { name: 'f', arguments: { path: 'x', n: [1] } } },
    ]);
    expect(ends[0]?.input).toEqual({ path: 'x', n: [1] });
    expect(events[1]).toEqual({ type: 'tool-call-input-delta', blockId: '0', delta: '{"path":"x","n":[1]}' });
  });

  it('gives inputError, never an exception, for arguments that are not a JSON object', () => {
    const { ends } = assemble([
      { index: 0, id: 'a', function: { name: 'f', arguments: '{"broken": ' } },
      { index: 1, id: 'b', function: { name: 'g', arguments: '[1,2]' } },
    ]);
    expect(ends[0]).toMatchObject({ input: {}, inputError: { kind: 'invalid-json' } });
    expect(ends[1]).toMatchObject({ input: {}, inputError: { kind: 'not-an-object' } });
  });

  it('ignores empty fragments that would start a call', () => {
    const { events } = assemble([
      { index: 3, id: '', function: { arguments: '' } },
      { id: null, function: null },
    ]);
    expect(events).toEqual([]);
  });
});
