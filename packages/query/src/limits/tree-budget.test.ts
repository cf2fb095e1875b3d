import { type Catalogue, findModel, getShippedCatalogue, type Message } from '@boxagnts/api';
import { agentStatusTool, agentTool, defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collect, type Harness, startHarness } from '../test/harness.js';
import { isUnpricedBudgetError } from './unpriced-budget-error.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const echo = defineTool({
  name: 'echo',
  description: 'Echo.',
  inputSchema: z.object({ text: z.string() }),
  permission: 'read-only',
  execute: async ({ text }) => textResult(text),
});

// claude-sonnet-4-6 costs $3 and claude-haiku-4-5 $1 per million input tokens: each call below is $0.30.
const PARENT = 'claude-sonnet-4-6';
const CHILD = 'claude-haiku-4-5';
const CALL_USD = 0.3;
const parentUsage = { input: 100_000, output: 0 };
const childUsage = { input: 300_000, output: 0 };

function costOf(model: string): number {
  const price = findModel(model, { provider: 'anthropic' })?.price;
  return (price?.input ?? 0) / 10;
}

/** USD of every request the mock served, priced per model: what the tree really spent. */
function servedUsd(): number {
  let total = 0;
  for (const request of harness?.mock.requests ?? []) {
    const model = (request.body as { model?: string }).model;
    total += model === CHILD ? costOf(CHILD) * 3 : costOf(PARENT);
  }
  return total;
}

const startThree = {
  content: [1, 2, 3].map((index) => ({
    type: 'tool_call' as const,
    name: 'agent',
    input: { description: `task ${index}`, prompt: `Do task ${index} forever.`, run_in_background: true },
  })),
  usage: parentUsage,
};
const waitThree = {
  content: [1, 2, 3].map((index) => ({
    type: 'tool_call' as const,
    name: 'agent_status',
    input: { id: `agent-1-${index}`, action: 'wait', timeout_seconds: 30 },
  })),
  usage: parentUsage,
};
const childLoops = {
  match: { model: CHILD },
  steps: [{ content: [{ type: 'tool_call' as const, name: 'echo', input: { text: 'more' } }], usage: childUsage }],
  repeatLast: true,
};

describe('one budget ledger per agent tree', () => {
  it('holds a $1 tree budget against three background children that each try to overspend', async () => {
    expect(costOf(PARENT)).toBeCloseTo(CALL_USD, 6);
    expect(costOf(CHILD) * 3).toBeCloseTo(CALL_USD, 6);
    harness = await startHarness({
      rules: [childLoops],
      steps: [startThree, waitThree, { text: 'done', usage: parentUsage }],
    });
    const maxConcurrent = 3;
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Split the work in three.' }],
      tools: [agentTool, agentStatusTool, echo],
      toolContext: { root: harness.root, sessionId: 'tb1' },
      config: { model: PARENT, budgetUsd: 1 },
      subAgents: { model: CHILD, maxConcurrent, defaultMaxTurns: 50 },
    });
    // The documented bound: limit + (calls in flight, at most one per running agent) x the dearest call.
    const bound = 1 + (maxConcurrent + 1) * CALL_USD;
    expect(servedUsd()).toBeLessThanOrEqual(bound + 1e-9);
    expect(outcome.usage.total.costUsd).toBeCloseTo(servedUsd(), 6);
    expect(outcome.usage.total.calls).toBe(harness.mock.requests.length);
    expect(outcome.reason).toBe('budget_exceeded');
  });

  it('holds managed mode total and per-executor budgets with three executors', async () => {
    harness = await startHarness({
      rules: [childLoops],
      steps: [startThree, waitThree, { text: 'done', usage: parentUsage }],
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Manage three executors.' }],
      tools: [echo],
      toolContext: { root: harness.root, sessionId: 'tb2' },
      config: {
        model: PARENT,
        budgetUsd: 1,
        managed: { executorModel: CHILD, maxConcurrentExecutors: 3, maxExecutorTurns: 50, executorBudgetUsd: 0.5 },
      },
    });
    expect(servedUsd()).toBeLessThanOrEqual(1 + 4 * CALL_USD + 1e-9);
    for (const [id, total] of Object.entries(outcome.usage.bySubAgent)) {
      // Each executor stops at its own $0.50, one call in flight at most past it.
      expect(total.costUsd, id).toBeLessThanOrEqual(0.5 + CALL_USD + 1e-9);
    }
    expect(Object.keys(outcome.usage.bySubAgent).length).toBeGreaterThan(0);
  });

  it('refuses a USD budget on an unpriced model with a typed error, and runs it on opt-in or with a price', async () => {
    harness = await startHarness({ steps: [{ text: 'hi', usage: parentUsage }], repeatLast: true });
    const base = {
      provider: harness.provider,
      messages: [{ role: 'user', content: 'hi' }] as Message[],
      toolContext: { root: harness.root, sessionId: 'tb3' },
    };
    const refused = await collect({ ...base, config: { model: 'mystery-model-9', budgetUsd: 1 } });
    expect(refused.outcome.reason).toBe('error');
    if (refused.outcome.reason !== 'error') return;
    expect(isUnpricedBudgetError(refused.outcome.cause)).toBe(true);
    expect(refused.outcome.error).toContain('allowUnpricedBudget');
    expect(refused.outcome.error).toContain('catalogue');
    expect(harness.mock.requests).toHaveLength(0);

    const optedIn = await collect({
      ...base,
      config: { model: 'mystery-model-9', budgetUsd: 1, allowUnpricedBudget: true },
    });
    expect(optedIn.outcome.reason).toBe('end_turn');
    expect(optedIn.outcome.usage.total.unpricedCalls).toBe(1);

    const shipped = getShippedCatalogue();
    const row = {
      ...(findModel(PARENT, { provider: 'anthropic' }) as Catalogue['models'][number]),
      id: 'mystery-model-9',
      aliases: [],
    };
    const catalogue: Catalogue = { ...shipped, models: [...shipped.models, row] };
    const priced = await collect({ ...base, catalogue, config: { model: 'mystery-model-9', budgetUsd: 1 } });
    expect(priced.outcome.reason).toBe('end_turn');
    expect(priced.outcome.usage.total.costUsd).toBeCloseTo(CALL_USD, 6);
  });
});
