import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { runQueryToEnd } from '@boxagnts/query';
import { startMockServer } from '@boxagnts/testkit';
import { type AnyTool, defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { nativeToolSource } from '../native-source/native-tool-source.js';
import type { ToolHooks } from '../types.js';
import { createToolSet } from './create-tool-set.js';
import { testContext } from './test/fixtures.js';

// A call's input is validated once, whichever way it reaches the tool: the loop, the tool set's
// guard (hooks and permission rules) and the tool share that one validation.

const usage = { input: 100, output: 20 };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A tool whose schema counts every time it parses an input (parse, safeParse, async or not). */
function countingTool(): { tool: AnyTool; validations: () => number; received: unknown[] } {
  let count = 0;
  const received: unknown[] = [];
  const tool = defineTool({
    name: 'look',
    description: 'Look at a thing.',
    inputSchema: z.object({ id: z.number(), mode: z.enum(['quick', 'full']).default('quick') }).superRefine(() => {
      count++;
    }),
    permission: 'read-only',
    execute: async (input) => {
      received.push(input);
      return textResult(`looked at ${input.id}`);
    },
  });
  return { tool, validations: () => count, received };
}

async function runWithToolSet(calls: number, hooks?: ToolHooks) {
  const mock = await startMockServer({
    script: {
      steps: [
        {
          content: Array.from({ length: calls }, (_, index) => ({
            type: 'tool_call' as const,
            name: 'look',
            input: { id: index + 1 },
          })),
          usage,
        },
        { text: 'done', usage },
      ],
    },
  });
  const root = await mkdtemp(join(tmpdir(), 'tm-one-validation-'));
  const counting = countingTool();
  const toolSet = await createToolSet({
    sources: [nativeToolSource(), { name: 'things', kind: 'custom', load: async () => [counting.tool] }],
    ...(hooks === undefined ? {} : { hooks }),
  });
  cleanups.push(async () => {
    await toolSet.close();
    await mock.close();
    await rm(root, { recursive: true, force: true });
  });
  const provider = createAnthropicMessagesProvider({ baseURL: mock.url, apiKey: 'test-key', retry: { maxRetries: 0 } });
  const outcome = await runQueryToEnd({
    provider,
    messages: [{ role: 'user', content: 'Look' }],
    tools: toolSet.tools(),
    toolContext: { root, sessionId: 'one-validation' },
    config: { model: 'claude-sonnet-4-6' },
  });
  return { outcome, ...counting, toolSet, root };
}

describe('one validation per call', () => {
  it('through runQuery and the default tool set: one call in a reply', async () => {
    const { outcome, validations, received } = await runWithToolSet(1);
    expect(outcome.reason).toBe('end_turn');
    expect(received).toEqual([{ id: 1, mode: 'quick' }]);
    expect(validations()).toBe(1);
  });

  it('through runQuery and the default tool set: several calls in a reply (the checks go first)', async () => {
    const { outcome, validations, received } = await runWithToolSet(3);
    expect(outcome.reason).toBe('end_turn');
    expect(received).toHaveLength(3);
    expect(validations()).toBe(3);
  });

  it('with a before-tool hook that only looks, still once per call', async () => {
    const seen: unknown[] = [];
    const { validations, received } = await runWithToolSet(2, {
      beforeTool: [
        {
          run: async ({ input }) => {
            seen.push(input);
            return undefined;
          },
        },
      ],
    });
    expect(seen).toEqual([{ id: 1 }, { id: 2 }]);
    expect(received).toHaveLength(2);
    expect(validations()).toBe(2);
  });

  it('a hook that rewrites the input costs one more validation (of the new input), and the tool gets it', async () => {
    const { validations, received } = await runWithToolSet(1, {
      beforeTool: [{ run: async ({ input }) => ({ input: { ...input, mode: 'full' } }) }],
    });
    expect(received).toEqual([{ id: 1, mode: 'full' }]);
    expect(validations()).toBe(2);
  });

  it('an invalid input is refused after one validation and never reaches the tool', async () => {
    const counting = countingTool();
    // A refinement does not run on an input that fails the object's own checks: count the parses.
    const parses = vi.spyOn(counting.tool.inputSchema, 'safeParse');
    const toolSet = await createToolSet({
      sources: [{ name: 'things', kind: 'custom', load: async () => [counting.tool] }],
    });
    cleanups.push(() => toolSet.close());
    const controller = new AbortController();
    const result = await toolSet.execute('look', { id: 'one' }, testContext(tmpdir(), { signal: controller.signal }));
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('Invalid input for tool \\"look\\"');
    expect(counting.received).toEqual([]);
    expect(parses).toHaveBeenCalledTimes(1);
    const ok = await toolSet.execute('look', { id: 7 }, testContext(tmpdir(), { signal: controller.signal }));
    expect(ok.isError).not.toBe(true);
    expect(parses).toHaveBeenCalledTimes(2);
    expect(counting.received).toEqual([{ id: 7, mode: 'quick' }]);
  });

  it('a plain tool (no tool set) run by runQuery is validated once too', async () => {
    const mock = await startMockServer({
      script: {
        steps: [
          { content: [{ type: 'tool_call', name: 'look', input: { id: 9 } }], usage },
          { text: 'ok', usage },
        ],
      },
    });
    cleanups.push(() => mock.close());
    const counting = countingTool();
    const provider = createAnthropicMessagesProvider({
      baseURL: mock.url,
      apiKey: 'test-key',
      retry: { maxRetries: 0 },
    });
    const outcome = await runQueryToEnd({
      provider,
      messages: [{ role: 'user', content: 'Look' }],
      tools: [counting.tool],
      toolContext: { root: tmpdir(), sessionId: 'plain' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(counting.received).toEqual([{ id: 9, mode: 'quick' }]);
    expect(counting.validations()).toBe(1);
  });
});
