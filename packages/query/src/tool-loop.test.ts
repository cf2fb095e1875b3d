import { defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, type Harness, startHarness } from './test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 10 };
const look = defineTool({
  name: 'look',
  description: 'Looks at a place.',
  inputSchema: z.object({ at: z.string() }),
  permission: 'read-only',
  execute: async ({ at }) => textResult(`nothing at ${at}`),
});
const lookAt = (at: string) => ({ content: [{ type: 'tool_call' as const, name: 'look', input: { at } }], usage });

describe('tool loops in the run', () => {
  it('tells the model about an A,B,A,B cycle and stops the run with tool_loop past the second threshold', async () => {
    harness = await startHarness({
      steps: Array.from({ length: 20 }, (_, index) => lookAt(index % 2 === 0 ? 'a' : 'b')),
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Find it' }],
      tools: [look],
      toolContext: { root: harness.root, sessionId: 'tl1' },
      config: { model: 'claude-sonnet-4-6', tools: { loopThreshold: 3, loopStopThreshold: 8 } },
    });
    expect(outcome.reason).toBe('tool_loop');
    expect(outcome.turns).toBe(8);
    const noted = events.filter((event) => event.type === 'status' && event.kind === 'tool-loop');
    expect(noted.length).toBeGreaterThan(1);
    expect(JSON.stringify(harness.mock.requests[4]?.body)).toContain('cycle of 2 calls');
  });
});
