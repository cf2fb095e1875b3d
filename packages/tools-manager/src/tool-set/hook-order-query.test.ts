import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { runQueryToEnd } from '@boxagnts/query';
import { startMockServer } from '@boxagnts/testkit';
import { defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolSet } from './create-tool-set.js';

const usage = { input: 100, output: 20 };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Lets other queued work run (several macrotask turns), so overlapping work would interleave. */
async function yieldTurns(count: number): Promise<void> {
  for (let index = 0; index < count; index++) await new Promise((resolve) => setImmediate(resolve));
}

async function runTurn(
  calls: Array<{ name: string; id: number }>,
  hookKind: 'function' | 'ask' | 'remember',
  maxConcurrency?: number,
  refuse: ReadonlySet<number> = new Set(),
) {
  const mock = await startMockServer({
    script: {
      steps: [
        {
          content: [
            { type: 'text', text: 'Working.' },
            ...calls.map((call) => ({ type: 'tool_call' as const, name: call.name, input: { id: call.id } })),
          ],
          usage,
        },
        { text: 'done', usage },
      ],
    },
  });
  const root = await mkdtemp(join(tmpdir(), 'tm-hook-order-'));
  cleanups.push(async () => {
    await mock.close();
    await rm(root, { recursive: true, force: true });
  });
  const log: string[] = [];
  const tool = (name: string, permission: 'network' | 'write') =>
    defineTool({
      name,
      description: `${name} tool`,
      inputSchema: z.object({ id: z.number() }),
      permission,
      // Fetch-like: runs in parallel with its kind, yet asks the user in default mode.
      ...(permission === 'network' ? { concurrencySafe: true } : {}),
      execute: async ({ id }) => {
        log.push(`run start ${id}`);
        await yieldTurns(5);
        log.push(`run end ${id}`);
        return textResult(`${name} ${id}`);
      },
    });
  const record = async (id: unknown) => {
    log.push(`check start ${id}`);
    await yieldTurns(5);
    log.push(`check end ${id}`);
  };
  const toolSet = await createToolSet({
    sources: [{ name: 'tools', kind: 'custom', load: async () => [tool('look', 'network'), tool('put', 'write')] }],
    permissions: { mode: 'bypass' },
    ...(hookKind === 'function'
      ? {
          hooks: {
            beforeTool: [
              {
                run: async ({ input }) => {
                  await record(input.id);
                  return refuse.has(Number(input.id)) ? { block: true as const, reason: 'not this one' } : undefined;
                },
              },
            ],
          },
        }
      : {
          permissions: { mode: 'default' as const },
          ask: async (request) => {
            await record(request.input.id);
            if (refuse.has(Number(request.input.id))) return { behavior: 'deny' as const, reason: 'no' };
            return { behavior: 'allow' as const, ...(hookKind === 'remember' ? { remember: true } : {}) };
          },
        }),
  });
  cleanups.push(() => toolSet.close());
  const provider = createAnthropicMessagesProvider({ baseURL: mock.url, apiKey: 'test-key', retry: { maxRetries: 0 } });
  const outcome = await runQueryToEnd({
    provider,
    messages: [{ role: 'user', content: 'Go' }],
    tools: toolSet.tools(),
    toolContext: { root, sessionId: 'order' },
    config: { model: 'claude-sonnet-4-6', ...(maxConcurrency === undefined ? {} : { tools: { maxConcurrency } }) },
  });
  return { log, outcome };
}

/** The ids of the checks in the order they started, asserting that no two checks overlapped. */
function sequentialChecks(log: readonly string[]): number[] {
  const checks = log.filter((line) => line.startsWith('check '));
  const ids: number[] = [];
  for (let index = 0; index < checks.length; index += 2) {
    const id = Number(checks[index]?.split(' ')[2]);
    expect(checks[index]).toBe(`check start ${id}`);
    expect(checks[index + 1], `check ${id} overlapped another`).toBe(`check end ${id}`);
    ids.push(id);
  }
  return ids;
}

/** Asserts that every check of the turn ended before any call of it started running. */
function checksBeforeRuns(log: readonly string[]): void {
  const lastCheck = log.findLastIndex((line) => line.startsWith('check end'));
  const firstRun = log.findIndex((line) => line.startsWith('run start'));
  expect(firstRun, 'a call ran before every check of its turn was done').toBeGreaterThan(lastCheck);
}

describe('before-tool checks of one turn, through runQuery', () => {
  const turn = [
    { name: 'look', id: 1 },
    { name: 'look', id: 2 },
    { name: 'look', id: 3 },
    { name: 'put', id: 4 },
    { name: 'put', id: 5 },
    { name: 'look', id: 6 },
  ];

  it('hooks run one after another in the model order, then the allowed calls (reads together)', async () => {
    const { log, outcome } = await runTurn(turn, 'function');
    expect(outcome.reason).toBe('end_turn');
    expect(sequentialChecks(log)).toEqual([1, 2, 3, 4, 5, 6]);
    // The read group: every hook first, then the three reads, which still overlap each other.
    const firstRun = log.indexOf('run start 1');
    expect(firstRun).toBeGreaterThan(log.indexOf('check end 3'));
    expect(log.slice(firstRun, firstRun + 3).sort()).toEqual(['run start 1', 'run start 2', 'run start 3']);
    // Every hook, the writers' too, comes before any call runs; then writers run one at a time, in order.
    checksBeforeRuns(log);
    expect(log.indexOf('run start 4')).toBeGreaterThan(log.indexOf('run end 3'));
    expect(log.indexOf('run start 5')).toBe(log.indexOf('run end 4') + 1);
    expect(log.indexOf('run start 6')).toBe(log.indexOf('run end 5') + 1);
    expect(log.filter((line) => line.startsWith('run end'))).toHaveLength(6);
  });

  it('questions to the user come one at a time in the model order too', async () => {
    const { log, outcome } = await runTurn(turn, 'ask');
    expect(outcome.reason).toBe('end_turn');
    expect(sequentialChecks(log)).toEqual([1, 2, 3, 4, 5, 6]);
    checksBeforeRuns(log);
  });

  it('40 parallel reads: all 40 hooks in order, then the reads', async () => {
    const many = Array.from({ length: 40 }, (_, index) => ({ name: 'look', id: index + 1 }));
    const { log } = await runTurn(many, 'function', 40);
    expect(sequentialChecks(log)).toEqual(many.map((call) => call.id));
    expect(log.indexOf('run start 1')).toBe(log.indexOf('check end 40') + 1);
  });

  it('with a smaller pool every hook still comes first, in order, and at most 4 reads overlap', async () => {
    const many = Array.from({ length: 12 }, (_, index) => ({ name: 'look', id: index + 1 }));
    const { log } = await runTurn(many, 'function', 4);
    expect(sequentialChecks(log)).toEqual(many.map((call) => call.id));
    checksBeforeRuns(log);
    let running = 0;
    let most = 0;
    for (const line of log) {
      if (line.startsWith('run start')) most = Math.max(most, ++running);
      if (line.startsWith('run end')) running--;
    }
    expect(most).toBe(4);
    expect(log.filter((line) => line.startsWith('run end'))).toHaveLength(12);
  });

  it('the same call five times in one parallel group asks once when the answer is remembered', async () => {
    const same = Array.from({ length: 5 }, () => ({ name: 'look', id: 7 }));
    const { log } = await runTurn(same, 'remember');
    expect(sequentialChecks(log)).toEqual([7]);
    checksBeforeRuns(log);
    expect(log.filter((line) => line === 'run end 7')).toHaveLength(5);
  });

  it.each(['function', 'ask'] as const)(
    'calls refused in the pre-phase (%s) never run; the allowed ones still run after every check',
    async (kind) => {
      const { log, outcome } = await runTurn(turn, kind, undefined, new Set([2, 4]));
      expect(outcome.reason).toBe('end_turn');
      expect(sequentialChecks(log)).toEqual([1, 2, 3, 4, 5, 6]);
      checksBeforeRuns(log);
      expect(log.filter((line) => line.startsWith('run end')).sort()).toEqual([
        'run end 1',
        'run end 3',
        'run end 5',
        'run end 6',
      ]);
      const results = JSON.stringify(outcome.messages);
      expect(results).toContain(kind === 'function' ? 'not this one' : 'the user denied this call');
    },
  );
});
