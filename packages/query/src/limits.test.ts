import type { Message } from '@boxagnts/api';
import { defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { QueryEvent } from './events.js';
import { runQuery } from './loop.js';
import { collect, type Harness, startHarness } from './test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 20 };
type Body = { messages: Array<{ role: string; content: unknown }> };

const echo = defineTool({
  name: 'echo',
  description: 'Echo.',
  inputSchema: z.object({ text: z.string() }),
  permission: 'read-only',
  execute: async ({ text }) => textResult(text),
});

const callEcho = (text: string) => ({
  content: [{ type: 'tool_call' as const, name: 'echo', input: { text } }],
  usage,
});

describe('limits and control', () => {
  it('stops at max turns, counting every model call', async () => {
    harness = await startHarness({ steps: [callEcho('again')], repeatLast: true });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'loop' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 'l1' },
      config: { model: 'claude-sonnet-4-6', maxTurns: 3 },
    });
    expect(outcome.reason).toBe('max_turns');
    expect(outcome.turns).toBe(3);
    expect(harness.mock.requests).toHaveLength(3);
  });

  it('ends with budget_exceeded once the run has spent its USD budget, with the numbers', async () => {
    // claude-sonnet-4-6 costs $3 per million input tokens: 500k input tokens are $1.50 a call.
    harness = await startHarness({
      steps: [{ ...callEcho('x'), usage: { input: 500_000, output: 10 } }],
      repeatLast: true,
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'spend' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 'l2' },
      config: { model: 'claude-sonnet-4-6', budgetUsd: 2 },
    });
    expect(outcome.reason).toBe('budget_exceeded');
    if (outcome.reason !== 'budget_exceeded') return;
    expect(outcome.limitUsd).toBe(2);
    expect(outcome.costUsd).toBeGreaterThanOrEqual(2);
    expect(outcome.turns).toBe(2);
    const usageEvents = events.filter((event) => event.type === 'usage');
    expect(usageEvents[0]?.type === 'usage' && usageEvents[0].costUsd).toBeCloseTo(1.50015, 4);
  });

  it('is cancelled during a tool: the tool sees the abort and the run ends as cancelled', async () => {
    harness = await startHarness({
      steps: [{ content: [{ type: 'tool_call', name: 'wait_forever', input: {} }], usage }],
    });
    const controller = new AbortController();
    let toolAborted = false;
    const waitForever = defineTool({
      name: 'wait_forever',
      description: 'Waits until cancelled.',
      inputSchema: z.object({}),
      permission: 'execute',
      execute: (_input, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            toolAborted = true;
            resolve(textResult('stopped'));
          });
        }),
    });
    const events: QueryEvent[] = [];
    const run = runQuery({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'wait' }],
      tools: [waitForever],
      toolContext: { root: harness.root, sessionId: 'l3' },
      config: { model: 'claude-sonnet-4-6' },
      signal: controller.signal,
    });
    let outcome: Awaited<ReturnType<typeof run.next>>['value'];
    for (;;) {
      const next = await run.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      events.push(next.value);
      if (next.value.type === 'tool-start') setTimeout(() => controller.abort(), 20);
    }
    expect(outcome.reason).toBe('cancelled');
    expect(toolAborted).toBe(true);
    const end = events.find((event) => event.type === 'tool-end');
    expect(end?.type === 'tool-end' && end.result.isError).toBe(true);
    // Exactly one result for the call, even though it was cancelled.
    expect(outcome.messages.at(-1)?.role).toBe('user');
  });

  it('is cancelled during streaming', async () => {
    harness = await startHarness({
      steps: [{ text: 'streaming and then hanging', fault: { kind: 'stall', afterEvents: 5 } }],
    });
    const controller = new AbortController();
    const run = runQuery({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'hi' }],
      toolContext: { root: harness.root, sessionId: 'l4' },
      config: { model: 'claude-sonnet-4-6' },
      signal: controller.signal,
    });
    let reason = '';
    let sawText = false;
    for (;;) {
      const next = await run.next();
      if (next.done) {
        reason = next.value.reason;
        break;
      }
      if (next.value.type === 'text-delta' && !sawText) {
        sawText = true;
        controller.abort();
      }
    }
    expect(sawText).toBe(true);
    expect(reason).toBe('cancelled');
  });

  it('passes model calls a signal only when something can cancel the run, and runs tools either way', async () => {
    harness = await startHarness({
      steps: [callEcho('one'), { text: 'done', usage }, callEcho('two'), { text: 'done', usage }],
    });
    const base = harness.provider;
    const seen: Array<AbortSignal | undefined> = [];
    const recording = {
      ...base,
      streamMessage: (request: Parameters<typeof base.streamMessage>[0], options?: { signal?: AbortSignal }) => {
        seen.push(options?.signal);
        return base.streamMessage(request, options);
      },
    };
    const uncancellable = await collect({
      provider: recording,
      messages: [{ role: 'user', content: 'echo one' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 'sig-1' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(uncancellable.outcome.reason).toBe('end_turn');
    expect(seen).toEqual([undefined, undefined]);
    const controller = new AbortController();
    const cancellable = await collect({
      provider: recording,
      messages: [{ role: 'user', content: 'echo two' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 'sig-2' },
      config: { model: 'claude-sonnet-4-6' },
      signal: controller.signal,
    });
    expect(cancellable.outcome.reason).toBe('end_turn');
    expect(seen).toHaveLength(4);
    // The caller's signal itself, the same for both calls of the run: with no timeout to add, the
    // run makes no AbortController of its own.
    expect(seen[2]).toBe(controller.signal);
    expect(seen[3]).toBe(seen[2]);
    expect(seen[2]?.aborted).toBe(false);
    // (That the caller's abort reaches a running call is the "cancelled during streaming" test.)
    const toolEnds = [...uncancellable.events, ...cancellable.events].filter((event) => event.type === 'tool-end');
    expect(toolEnds.map((event) => event.type === 'tool-end' && event.result.content)).toEqual([
      [{ type: 'text', text: 'one' }],
      [{ type: 'text', text: 'two' }],
    ]);
  });

  it('with a caller signal and a timeout, either one stops a running tool', async () => {
    harness = await startHarness({
      steps: [{ content: [{ type: 'tool_call', name: 'wait_forever', input: {} }], usage }],
      repeatLast: true,
    });
    const waitForever = defineTool({
      name: 'wait_forever',
      description: 'Waits until cancelled.',
      inputSchema: z.object({}),
      permission: 'execute',
      execute: (_input, context) =>
        new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(textResult('stopped')))),
    });
    const options = (sessionId: string, signal: AbortSignal, timeoutMs: number) => ({
      provider: harness?.provider as NonNullable<Harness>['provider'],
      messages: [{ role: 'user' as const, content: 'wait' }],
      tools: [waitForever],
      toolContext: { root: harness?.root as string, sessionId },
      config: { model: 'claude-sonnet-4-6', timeoutMs },
      signal,
    });
    // The timeout fires first: the run's own controller (the caller's signal never aborts).
    const timedOut = await collect(options('sig-t1', new AbortController().signal, 100));
    expect(timedOut.outcome.reason).toBe('error');
    expect(timedOut.outcome.reason === 'error' && timedOut.outcome.error).toContain('timeout');
    // The caller aborts first: cancelled, not a timeout.
    const caller = new AbortController();
    const run = runQuery(options('sig-t2', caller.signal, 60_000));
    let reason = '';
    for (;;) {
      const next = await run.next();
      if (next.done) {
        reason = next.value.reason;
        break;
      }
      if (next.value.type === 'tool-start') setTimeout(() => caller.abort(), 20);
    }
    expect(reason).toBe('cancelled');
  });

  it('drains pending user messages into the history before the next call', async () => {
    harness = await startHarness({ steps: [callEcho('first'), { text: 'Noted both.', usage }] });
    const queue: Message[] = [];
    let drains = 0;
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'start' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 'l5' },
      config: { model: 'claude-sonnet-4-6' },
      pending: {
        drain() {
          drains++;
          if (drains === 2) queue.push({ role: 'user', content: 'also: use tabs' });
          return queue.splice(0);
        },
      },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(events.some((event) => event.type === 'user-message')).toBe(true);
    const second = JSON.stringify((harness.mock.requests[1]?.body as Body | undefined)?.messages);
    expect(second).toContain('also: use tabs');
    expect(JSON.stringify((harness.mock.requests[0]?.body as Body | undefined)?.messages)).not.toContain('use tabs');
  });

  it('tells the model when it repeats an identical call', async () => {
    harness = await startHarness({
      steps: [callEcho('same'), callEcho('same'), callEcho('same'), { text: 'ok', usage }],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'go' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 'l6' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(events.some((event) => event.type === 'status' && event.kind === 'tool-loop')).toBe(true);
    expect(JSON.stringify((harness.mock.requests[3]?.body as Body | undefined)?.messages.at(-1))).toContain(
      'identical',
    );
  });

  it('trims the oldest tool results over the budget, never the newest, with a marker', async () => {
    const big = (tag: string) => `${tag}:${'y'.repeat(3000)}`;
    harness = await startHarness({
      steps: [callEcho(big('one')), callEcho(big('two')), callEcho(big('three')), { text: 'ok', usage }],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'go' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 'l7' },
      config: { model: 'claude-sonnet-4-6', toolResultBudgetChars: 5000 },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(events.some((event) => event.type === 'status' && event.kind === 'tool-results-trimmed')).toBe(true);
    const last = JSON.stringify((harness.mock.requests[3]?.body as Body | undefined)?.messages);
    expect(last).toContain('Tool result removed to keep the context small: echo returned');
    expect(last).toContain('three:yyy');
    // Only the call's own input still holds the first text; its result was replaced.
    expect(last.split('one:yyy').length - 1).toBe(1);
    expect(last.split('three:yyy').length - 1).toBe(2);
  });

  it('compacts at the threshold, keeping the agent constraints, the user request and the files touched', async () => {
    harness = await startHarness({
      rules: [
        { match: { contains: 'Summarise this conversation' }, steps: [{ text: 'SUMMARY OF WORK.', usage }] },
        {
          match: { protocol: 'anthropic' },
          steps: [callEcho('a'), callEcho('b'), callEcho('c'), { text: 'done', usage }],
        },
      ],
    });
    const read = defineTool({
      name: 'read',
      description: 'Read.',
      inputSchema: z.object({ file_path: z.string() }),
      permission: 'read-only',
      execute: async () => textResult('z'.repeat(4000)),
    });
    const history: Message[] = [{ role: 'user', content: 'Refactor src/app.ts; never touch the tests.' }];
    for (let index = 0; index < 4; index++) {
      history.push({
        role: 'assistant',
        content: [
          { type: 'text', text: `Thinking out loud about step ${index}: ${'w'.repeat(3000)}` },
          { type: 'tool_use', id: `t${index}`, name: 'read', input: { file_path: `src/file${index}.ts` } },
        ],
      });
      history.push({
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: `t${index}`, content: 'z'.repeat(4000) }],
      });
    }
    history.push({ role: 'user', content: 'continue' });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: history,
      tools: [echo, read],
      toolContext: { root: harness.root, sessionId: 'l8' },
      config: {
        model: 'claude-sonnet-4-6',
        contextWindow: 5000,
        agent: {
          name: 'careful',
          description: 'Careful agent',
          prompt: 'CONSTRAINT: only edit files under src/.',
          access: 'full',
        },
        compaction: { keepRecentTurns: 1 },
      },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(events.some((event) => event.type === 'token-pressure')).toBe(true);
    expect(events.some((event) => event.type === 'status' && event.kind === 'compacting')).toBe(true);
    const summaryRequest = harness.mock.requests.find((request) =>
      JSON.stringify(request.body).includes('Summarise this conversation'),
    );
    expect(summaryRequest).toBeDefined();
    expect((summaryRequest?.body as { tools?: unknown } | undefined)?.tools).toBeUndefined();
    const after = harness.mock.requests.at(-1)?.body as Body & { system: unknown };
    const sent = JSON.stringify(after.messages);
    expect(sent).toContain('SUMMARY OF WORK.');
    expect(sent).toContain('Refactor src/app.ts; never touch the tests.');
    expect(sent).toContain('CONSTRAINT: only edit files under src/.');
    expect(sent).toContain('src/file0.ts');
    // The agent's constraint is in the system prompt of every call as well.
    expect(JSON.stringify(after.system)).toContain('CONSTRAINT: only edit files under src/.');
  });
});
