import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolDefinitionError } from './define-tool.js';
import { executeTool } from './execute-tool.js';
import { testContext } from './test/context.js';
import { resultText, textResult } from './tool-results.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  permission: 'read-only',
  execute: async ({ a, b }) => textResult(String(a + b)),
});

describe('executeTool', () => {
  it('runs a tool with validated input', async () => {
    const result = await executeTool(add, { a: 2, b: 3 }, testContext());
    expect(result).toEqual({ content: [{ type: 'text', text: '5' }] });
  });

  it('answers invalid input with an error result naming the field', async () => {
    const result = await executeTool(add, { a: 'two' }, testContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/Invalid input for tool "add":\n- a: .*\n- b: /);
  });

  it('refuses input nested too deeply before validating it', async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 200; level++) deep = { nested: deep };
    const result = await executeTool(add, { a: 1, b: 2, extra: deep }, testContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Send a smaller input');
  });

  it('turns a throw into an error result', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails.',
      inputSchema: z.object({}),
      permission: 'read-only',
      execute: async () => {
        throw new Error('disk on fire');
      },
    });
    const result = await executeTool(broken, {}, testContext());
    expect(result).toMatchObject({ isError: true });
    expect(resultText(result)).toBe('Tool "broken" failed: disk on fire');
  });

  it('stops a call at its timeout and tells the tool through its signal', async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits until aborted.',
      inputSchema: z.object({}),
      permission: 'read-only',
      timeoutMs: 30,
      execute: (_input, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            sawAbort = true;
            resolve(textResult('stopped'));
          });
        }),
    });
    const result = await executeTool(slow, {}, testContext());
    expect(resultText(result)).toBe('Tool "slow" timed out after 30 ms and was stopped.');
    expect(sawAbort).toBe(true);
  });

  it('answers a cancelled run without running the tool', async () => {
    const controller = new AbortController();
    controller.abort();
    let ran = false;
    const tool = defineTool({
      name: 'never',
      description: 'Must not run.',
      inputSchema: z.object({}),
      permission: 'write',
      execute: async () => {
        ran = true;
        return textResult('ran');
      },
    });
    const result = await executeTool(tool, {}, testContext({ signal: controller.signal }));
    expect(result.isError).toBe(true);
    expect(ran).toBe(false);
  });
});

describe('defineTool', () => {
  it('rejects names providers refuse and schemas that are not objects', () => {
    const base = { description: 'x', permission: 'read-only' as const, execute: async () => textResult('') };
    expect(() => defineTool({ ...base, name: 'bad name!', inputSchema: z.object({}) })).toThrow(ToolDefinitionError);
    expect(() => defineTool({ ...base, name: 'ok', inputSchema: z.string() })).toThrow(/must be objects/);
    expect(() => defineTool({ ...base, name: 'ok', description: ' ', inputSchema: z.object({}) })).toThrow(
      /needs a description/,
    );
  });
});
