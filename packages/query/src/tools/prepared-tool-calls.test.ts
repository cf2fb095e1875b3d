import { type AnyTool, defineTool, errorResult, type ToolContext, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, type Harness, startHarness } from '../test/harness.js';
import type { PreparableTool, PreparedToolCall } from './prepared-tool-call.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 10 };

async function yieldTurns(count: number): Promise<void> {
  for (let index = 0; index < count; index++) await new Promise((resolve) => setImmediate(resolve));
}

/** A tool with the pre-phase seam whose `prepare` and execution record into `log`. */
function preparable(
  name: string,
  permission: 'read-only' | 'write',
  log: string[],
  decide: (id: number) => 'allow' | 'deny' | 'throw' = () => 'allow',
): PreparableTool {
  const base: AnyTool = defineTool({
    name,
    description: `${name} tool`,
    inputSchema: z.object({ id: z.number() }),
    permission,
    execute: async ({ id }) => textResult(`unprepared ${id}`),
  });
  return {
    ...base,
    async prepare(input: unknown): Promise<PreparedToolCall> {
      const id = (input as { id: number }).id;
      log.push(`check start ${id}`);
      await yieldTurns(3);
      log.push(`check end ${id}`);
      const verdict = decide(id);
      if (verdict === 'throw') throw new Error(`hook ${id} crashed`);
      if (verdict === 'deny') return { run: false, result: errorResult(`denied ${id}`) };
      return {
        run: true,
        async execute(context: ToolContext) {
          expect(context.toolCallId).toBeTruthy();
          log.push(`run start ${id}`);
          await yieldTurns(3);
          log.push(`run end ${id}`);
          return textResult(`${name} ran ${id}`);
        },
      };
    },
  };
}

async function runTurn(calls: Array<{ name: string; id: number }>, tools: AnyTool[], maxConcurrency = 10) {
  harness = await startHarness({
    steps: [
      {
        content: calls.map((call) => ({ type: 'tool_call' as const, name: call.name, input: { id: call.id } })),
        usage,
      },
      { text: 'done', usage },
    ],
  });
  const result = await collect({
    provider: harness.provider,
    messages: [{ role: 'user', content: 'Go' }],
    tools,
    toolContext: { root: harness.root, sessionId: 'prepared' },
    config: { model: 'claude-sonnet-4-6', tools: { maxConcurrency } },
  });
  return { ...result, second: JSON.stringify(harness.mock.requests[1]?.body) };
}

describe('the pre-phase of a turn (PreparableTool), through runQuery', () => {
  it('prepares every call in the model order before any call runs, then runs reads together and writers in order', async () => {
    const log: string[] = [];
    const turn = [
      { name: 'read', id: 1 },
      { name: 'read', id: 2 },
      { name: 'write', id: 3 },
      { name: 'read', id: 4 },
      { name: 'read', id: 5 },
      { name: 'write', id: 6 },
    ];
    const { outcome } = await runTurn(
      turn,
      [preparable('read', 'read-only', log), preparable('write', 'write', log)],
      2,
    );
    expect(outcome.reason).toBe('end_turn');
    const checks = log.filter((line) => line.startsWith('check'));
    expect(checks).toEqual(turn.flatMap((call) => [`check start ${call.id}`, `check end ${call.id}`]));
    expect(log.findIndex((line) => line.startsWith('run'))).toBe(checks.length);
    expect(log.slice(checks.length, checks.length + 2).sort()).toEqual(['run start 1', 'run start 2']);
    expect(log.indexOf('run start 3')).toBeGreaterThan(log.indexOf('run end 2'));
    expect(log.indexOf('run start 4')).toBeGreaterThan(log.indexOf('run end 3'));
    expect(log.filter((line) => line.startsWith('run end'))).toHaveLength(6);
  });

  it('a refused or crashing prepare answers its call with an error result; the others still run', async () => {
    const log: string[] = [];
    const decide = (id: number) => (id === 2 ? 'deny' : id === 3 ? 'throw' : 'allow');
    const turn = [1, 2, 3, 4].map((id) => ({ name: 'write', id }));
    const { outcome, events, second } = await runTurn(turn, [preparable('write', 'write', log, decide)]);
    expect(outcome.reason).toBe('end_turn');
    expect(log.filter((line) => line.startsWith('run end'))).toEqual(['run end 1', 'run end 4']);
    expect(second).toContain('denied 2');
    expect(second).toContain('hook 3 crashed');
    expect(events.filter((event) => event.type === 'tool-end')).toHaveLength(4);
  });

  it('a single call runs through execute (no pre-phase), and unknown tools in a prepared turn stay error results', async () => {
    const log: string[] = [];
    const single = await runTurn([{ name: 'read', id: 1 }], [preparable('read', 'read-only', log)]);
    expect(single.second).toContain('unprepared 1');
    await harness?.close();
    harness = undefined;
    const mixed = await runTurn(
      [
        { name: 'read', id: 1 },
        { name: 'missing', id: 2 },
      ],
      [preparable('read', 'read-only', log)],
    );
    expect(mixed.second).toContain('read ran 1');
    expect(mixed.second).toContain('There is no tool named');
  });

  it('many turns in a row: every turn prepares all its calls first', async () => {
    const log: string[] = [];
    const steps = Array.from({ length: 8 }, (_, turn) => ({
      content: [1, 2, 3].map((offset) => ({
        type: 'tool_call' as const,
        name: 'read',
        input: { id: turn * 10 + offset },
      })),
      usage,
    }));
    harness = await startHarness({ steps: [...steps, { text: 'done', usage }] });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Go' }],
      tools: [preparable('read', 'read-only', log)],
      toolContext: { root: harness.root, sessionId: 'prepared-many' },
      config: { model: 'claude-sonnet-4-6', tools: { loopThreshold: 100 } },
    });
    expect(outcome.reason).toBe('end_turn');
    for (let turn = 0; turn < 8; turn++) {
      const ids = [1, 2, 3].map((offset) => turn * 10 + offset);
      const lastCheck = Math.max(...ids.map((id) => log.indexOf(`check end ${id}`)));
      const firstRun = Math.min(...ids.map((id) => log.indexOf(`run start ${id}`)));
      expect(firstRun).toBeGreaterThan(lastCheck);
    }
  });

  it.each([
    ['inside the check', false],
    ['while the check waits', true],
  ])('a run cancelled %s does not wait for a prepare that never settles', async (_when, later) => {
    const controller = new AbortController();
    const log: string[] = [];
    const base = preparable('read', 'read-only', log);
    const stuck: PreparableTool = {
      ...base,
      prepare: () => {
        log.push('asking');
        const stop = () => controller.abort(new Error('host stopped the run'));
        if (later) setImmediate(stop);
        else stop();
        return new Promise<PreparedToolCall>(() => {});
      },
    };
    harness = await startHarness({
      steps: [
        {
          content: [1, 2].map((id) => ({ type: 'tool_call' as const, name: 'read', input: { id } })),
          usage,
        },
        { text: 'done', usage },
      ],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Go' }],
      tools: [stuck],
      toolContext: { root: harness.root, sessionId: 'prepared-cancel' },
      config: { model: 'claude-sonnet-4-6' },
      signal: controller.signal,
    });
    expect(outcome.reason).toBe('cancelled');
    expect(log).toEqual(['asking']);
    expect(log.some((line) => line.startsWith('run start'))).toBe(false);
    const ends = events.filter((event) => event.type === 'tool-end');
    expect(ends.length).toBeLessThanOrEqual(2);
  });
});
