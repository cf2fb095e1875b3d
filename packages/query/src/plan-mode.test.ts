import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineTool, enterPlanModeTool, exitPlanModeTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, type Harness, startHarness } from './test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 10 };
let writes = 0;
const writeTool = defineTool({
  name: 'write_file',
  description: 'Writes a file.',
  inputSchema: z.object({ path: z.string(), text: z.string() }),
  permission: 'write',
  execute: async ({ path, text }, context) => {
    writes++;
    await writeFile(join(context.root, path), text);
    return textResult(`wrote ${path}`);
  },
});
const call = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: 'tool_call' as const, name, input }],
  usage,
});

describe('plan mode in the loop', () => {
  it('works by default in runQuery: writes are refused until exit_plan_mode, then run', async () => {
    writes = 0;
    harness = await startHarness({
      steps: [
        call('enter_plan_mode', {}),
        call('write_file', { path: 'a.txt', text: 'early' }),
        call('exit_plan_mode', { plan: '1. Write a.txt' }),
        call('write_file', { path: 'a.txt', text: 'planned' }),
        { text: 'done', usage },
      ],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Plan, then write a.txt' }],
      tools: [enterPlanModeTool, exitPlanModeTool, writeTool],
      toolContext: { root: harness.root, sessionId: 'pm1' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(outcome.reason).toBe('end_turn');
    const results = events.flatMap((event) => (event.type === 'tool-end' ? [event] : []));
    expect(results[0]?.result.isError).toBeUndefined();
    expect(results[1]?.result.isError).toBe(true);
    expect(JSON.stringify(results[1]?.result.content)).toContain('plan mode');
    expect(results[3]?.result.isError).toBeUndefined();
    expect(writes).toBe(1);
  });

  it('keeps writes refused while the user has not approved the plan', async () => {
    writes = 0;
    harness = await startHarness({
      steps: [
        call('enter_plan_mode', {}),
        call('exit_plan_mode', { plan: '1. Write a.txt' }),
        call('write_file', { path: 'a.txt', text: 'x' }),
        { text: 'waiting for approval', usage },
      ],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Plan, then write a.txt' }],
      tools: [enterPlanModeTool, exitPlanModeTool, writeTool],
      toolContext: {
        root: harness.root,
        sessionId: 'pm2',
        ask: async () => ({ answered: true, answer: 'No, read b.txt first' }),
      },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(writes).toBe(0);
  });
});
