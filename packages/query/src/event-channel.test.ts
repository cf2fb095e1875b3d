import type { LlmProvider, LlmRequest, StreamEvent, Usage } from '@boxagnts/api';
import { defineTool, textResult } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { QueryOptions } from './config.js';
import type { QueryEvent } from './events.js';
import { runQuery, runQueryToEnd } from './loop.js';

const USAGE: Usage = {
  input: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  output: { total: 5, text: 5, reasoning: 0 },
};

/**
 * A provider whose streams say when they are closed: a tool turn (one `note` call) while the
 * history has one message, then a text answer. In process, because what these tests check is
 * whether the loop closed the stream's iterator, which an HTTP mock cannot show.
 */
function tracedProvider() {
  const trace: string[] = [];
  async function* streamMessage(request: LlmRequest): AsyncGenerator<StreamEvent> {
    const call = request.messages.length;
    trace.push(`open ${call}`);
    try {
      yield { type: 'message-start', id: `m${call}`, model: 'scripted' };
      if (call === 1) {
        yield { type: 'tool-call-start', blockId: 'b', toolCallId: 'c1', toolName: 'note' };
        yield { type: 'tool-call-end', blockId: 'b', toolCallId: 'c1', toolName: 'note', input: { text: 'x' } };
        yield { type: 'message-end', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: USAGE };
        return;
      }
      yield { type: 'text-start', blockId: 'b' };
      yield { type: 'text-delta', blockId: 'b', delta: 'Done.' };
      yield { type: 'text-end', blockId: 'b' };
      yield { type: 'message-end', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: USAGE };
    } finally {
      trace.push(`close ${call}`);
    }
  }
  const provider: LlmProvider = {
    id: 'scripted',
    name: 'Scripted',
    streamMessage,
    createMessage: () => Promise.reject(new Error('not used')),
    listModels: async () => [],
  };
  const note = defineTool({
    name: 'note',
    description: 'Notes a text.',
    inputSchema: z.object({ text: z.string() }),
    permission: 'read-only',
    execute: async ({ text }) => {
      trace.push(`note ${text}`);
      return textResult('noted');
    },
  });
  return { provider, note, trace };
}

function options(provider: LlmProvider, note: ReturnType<typeof tracedProvider>['note']): QueryOptions {
  return {
    provider,
    messages: [{ role: 'user' as const, content: 'Go.' }],
    tools: [note],
    toolContext: { root: process.cwd(), sessionId: 'channel-test' },
    config: { model: 'scripted', date: '2026-12-02' },
  };
}

describe('the loop core behind runQuery and runQueryToEnd', () => {
  it('runQuery never runs ahead of its consumer: stopping at turn-end starts no tool', async () => {
    const { provider, note, trace } = tracedProvider();
    const seen: string[] = [];
    for await (const event of runQuery(options(provider, note))) {
      seen.push(event.type);
      if (event.type === 'turn-end') break;
    }
    expect(seen).toEqual(['turn-start', 'turn-end']);
    expect(trace).toEqual(['open 1', 'close 1']);
  });

  it("runQuery's return() settles after the provider's stream is closed", async () => {
    const { provider, note, trace } = tracedProvider();
    const run = runQuery(options(provider, note));
    const types: string[] = [];
    for (;;) {
      const next = await run.next();
      if (next.done) break;
      types.push(next.value.type);
      if (next.value.type === 'text-delta') break;
    }
    expect(trace).toEqual(['open 1', 'close 1', 'note x', 'open 3']);
    const returned = await run.return(undefined as never);
    expect(returned.done).toBe(true);
    expect(trace).toEqual(['open 1', 'close 1', 'note x', 'open 3', 'close 3']);
    expect((await run.next()).done).toBe(true);
    expect(types.at(-1)).toBe('text-delta');
  });

  it('runQuery and runQueryToEnd give the same events in the same order and the same outcome', async () => {
    const first = tracedProvider();
    const pulled: QueryEvent[] = [];
    const run = runQuery(options(first.provider, first.note));
    let pulledOutcome: unknown;
    for (;;) {
      const next = await run.next();
      if (next.done) {
        pulledOutcome = next.value;
        break;
      }
      pulled.push(next.value);
    }
    const second = tracedProvider();
    const pushed: QueryEvent[] = [];
    const outcome = await runQueryToEnd(options(second.provider, second.note), (event) => pushed.push(event));
    expect(pushed.map((event) => event.type)).toEqual(pulled.map((event) => event.type));
    expect(pushed.map((event) => event.type)).toEqual([
      'turn-start',
      'turn-end',
      'usage',
      'tool-start',
      'tool-end',
      'turn-start',
      'text-delta',
      'turn-end',
      'usage',
      'done',
    ]);
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.text).toBe('Done.');
    expect(JSON.stringify(outcome)).toBe(JSON.stringify(pulledOutcome));
    expect(second.trace).toEqual(first.trace);
  });

  it('a single call whose schema throws fails the run after its tool-start, through both APIs', async () => {
    const broken = defineTool({
      name: 'note',
      description: 'A refinement with a bug.',
      inputSchema: z.object({ text: z.string() }).refine(() => {
        throw new Error('refinement bug');
      }),
      permission: 'read-only',
      execute: async () => textResult('never'),
    });
    const pushed: string[] = [];
    const outcome = await runQueryToEnd(options(tracedProvider().provider, broken), (event) => pushed.push(event.type));
    expect(pushed).toEqual(['turn-start', 'turn-end', 'usage', 'tool-start']);
    expect(outcome.reason === 'error' && outcome.error).toBe(
      'internal: the run failed unexpectedly (Error: refinement bug)',
    );
    const pulled: string[] = [];
    let failure: unknown;
    try {
      for await (const event of runQuery(options(tracedProvider().provider, broken))) pulled.push(event.type);
    } catch (error) {
      failure = error;
    }
    expect(pulled).toEqual(['turn-start', 'turn-end', 'usage', 'tool-start']);
    expect((failure as Error).message).toBe('refinement bug');
  });

  it('an onEvent that throws ends runQueryToEnd with an internal error, the stream closed, no tool run', async () => {
    const { provider, note, trace } = tracedProvider();
    const thrown = new Error('the consumer broke');
    const outcome = await runQueryToEnd(options(provider, note), (event) => {
      if (event.type === 'turn-end') throw thrown;
    });
    expect(outcome.reason).toBe('error');
    expect(outcome.reason === 'error' && outcome.error).toBe(
      'internal: the run failed unexpectedly (Error: the consumer broke)',
    );
    expect(outcome.reason === 'error' && outcome.cause).toBe(thrown);
    expect(trace).toEqual(['open 1', 'close 1']);
  });

  it('an onEvent that throws inside the stream closes the stream before runQueryToEnd resolves', async () => {
    const { provider, note, trace } = tracedProvider();
    const outcome = await runQueryToEnd(options(provider, note), (event) => {
      if (event.type === 'text-delta') throw new Error('stop here');
    });
    expect(outcome.reason).toBe('error');
    expect(trace).toEqual(['open 1', 'close 1', 'note x', 'open 3', 'close 3']);
  });

  it('runQuery before its first next(): return() and throw() end it without running the loop', async () => {
    const { provider, note, trace } = tracedProvider();
    const returned = runQuery(options(provider, note));
    expect(await returned.return(undefined as never)).toEqual({ done: true, value: undefined });
    expect(await returned.next()).toEqual({ done: true, value: undefined });
    const thrown = runQuery(options(provider, note));
    const error = new Error('not wanted');
    await expect(thrown.throw(error)).rejects.toBe(error);
    expect(await thrown.next()).toEqual({ done: true, value: undefined });
    expect(trace).toEqual([]);
  });

  it('runQuery queues next() calls made at once and answers them in order, then done', async () => {
    const { provider, note } = tracedProvider();
    const run = runQuery(options(provider, note));
    const steps = await Promise.all(Array.from({ length: 12 }, () => run.next()));
    expect(steps.map((step) => (step.done ? 'end' : step.value.type))).toEqual([
      'turn-start',
      'turn-end',
      'usage',
      'tool-start',
      'tool-end',
      'turn-start',
      'text-delta',
      'turn-end',
      'usage',
      'done',
      'end',
      'end',
    ]);
    const end = steps[10];
    expect(end?.done === true && end.value.reason).toBe('end_turn');
    expect(steps[11]).toEqual({ done: true, value: undefined });
  });
});
