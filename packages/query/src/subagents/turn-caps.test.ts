import { agentTool, defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, type Harness, startHarness } from '../test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 10 };
let counter = 0;
const work = defineTool({
  name: 'work',
  description: 'Does a step of work.',
  inputSchema: z.object({ step: z.string() }),
  permission: 'read-only',
  execute: async ({ step }) => textResult(`did ${step} ${counter++}`),
});

/** Executors that never finish on their own: each call asks for another step. */
const endless = (model: string) => ({
  match: { model },
  steps: [
    { content: [{ type: 'tool_call' as const, name: 'work', input: { step: 'a' } }], usage },
    { content: [{ type: 'tool_call' as const, name: 'work', input: { step: 'b' } }], usage },
  ],
  repeatLast: true,
});

function delegate(count: number, maxTurns: number | undefined) {
  return {
    content: Array.from({ length: count }, (_, index) => ({
      type: 'tool_call' as const,
      name: 'agent',
      input: {
        description: `part ${index}`,
        prompt: `Do part ${index}.`,
        ...(maxTurns === undefined ? {} : { max_turns: maxTurns }),
      },
    })),
    usage,
  };
}

function callsOf(model: string): number {
  return (harness?.mock.requests ?? []).filter((request) => (request.body as { model?: string }).model === model)
    .length;
}

describe('host turn caps are ceilings', () => {
  it('managed.maxExecutorTurns: 2 holds for three executors even when the manager asks for 50', async () => {
    harness = await startHarness({
      rules: [endless('executor-model')],
      steps: [delegate(3, 50), { text: 'all done', usage }],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Big task' }],
      tools: [work],
      toolContext: { root: harness.root, sessionId: 'tc1' },
      config: { model: 'manager-model', managed: { executorModel: 'executor-model', maxExecutorTurns: 2 } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(callsOf('executor-model')).toBe(6);
  });

  it('subAgents.defaultMaxTurns caps the agent tool default of 10, and a lower max_turns still lowers it', async () => {
    harness = await startHarness({
      rules: [endless('child-model')],
      steps: [delegate(1, undefined), delegate(1, 1), { text: 'done', usage }],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Delegate' }],
      tools: [agentTool, work],
      toolContext: { root: harness.root, sessionId: 'tc2' },
      config: { model: 'parent-model' },
      subAgents: { model: 'child-model', defaultMaxTurns: 3 },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(callsOf('child-model')).toBe(3 + 1);
    const ends = events.filter((event) => event.type === 'tool-end' && event.name === 'agent');
    expect(ends.map((event) => event.type === 'tool-end' && event.result.metadata?.turns)).toEqual([3, 1]);
  });
});
