import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolDefinitionError } from './define-tool.js';
import { executeTool, executeToolThen } from './execute-tool.js';
import { testContext } from './test/context.js';
import type { AnyTool, ToolResult } from './tool.js';
import type { ToolContext } from './tool-context.js';
import { resultText, textResult } from './tool-results.js';

const execFileAsync = promisify(execFile);

/** A tool that waits until its signal aborts, noting its name in `seen` when it does. */
function hanging(name: string, timeoutMs?: number, seen?: string[]) {
  return defineTool({
    name,
    description: 'Waits until its signal aborts.',
    inputSchema: z.object({}),
    permission: 'read-only',
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    execute: (_input, context) =>
      new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          seen?.push(name);
          resolve(textResult(`${name} saw the abort`));
        });
      }),
  });
}

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
    const seen: string[] = [];
    const result = await executeTool(hanging('slow', 30, seen), {}, testContext());
    expect(resultText(result)).toBe('Tool "slow" timed out after 30 ms and was stopped.');
    expect(seen).toEqual(['slow']);
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

describe('executeTool deadlines and cancellation', () => {
  it('times out concurrent calls each at its own deadline, leaves a call that finishes alone, and re-arms after idling', async () => {
    const order: string[] = [];
    const quick = defineTool({
      name: 'quick',
      description: 'Answers after 20 ms.',
      inputSchema: z.object({}),
      permission: 'read-only',
      timeoutMs: 5_000,
      execute: () => new Promise((resolve) => setTimeout(() => resolve(textResult('quick done')), 20)),
    });
    const late = executeTool(hanging('late', 120), {}, testContext()).then((result) => {
      order.push('late');
      return result;
    });
    const early = executeTool(hanging('early', 40), {}, testContext()).then((result) => {
      order.push('early');
      return result;
    });
    const fine = executeTool(quick, {}, testContext());
    expect(resultText(await fine)).toBe('quick done');
    expect(resultText(await early)).toBe('Tool "early" timed out after 40 ms and was stopped.');
    expect(resultText(await late)).toBe('Tool "late" timed out after 120 ms and was stopped.');
    expect(order).toEqual(['early', 'late']);
    // Nothing is running now; a new call with a short deadline is still stopped on time.
    const again = await executeTool(hanging('again', 30), {}, testContext());
    expect(resultText(again)).toBe('Tool "again" timed out after 30 ms and was stopped.');
  });

  it('cancels every running call of an aborted signal, and only those', async () => {
    const seen: string[] = [];
    const run = new AbortController();
    const other = new AbortController();
    const first = executeTool(hanging('first', undefined, seen), {}, testContext({ signal: run.signal }));
    const second = executeTool(hanging('second', undefined, seen), {}, testContext({ signal: run.signal }));
    const elsewhere = executeTool(hanging('elsewhere', 60, seen), {}, testContext({ signal: other.signal }));
    run.abort(new Error('user stopped'));
    expect(resultText(await first)).toBe('Tool "first" was cancelled.');
    expect(resultText(await second)).toBe('Tool "second" was cancelled.');
    expect(seen).toEqual(['first', 'second']);
    expect(resultText(await elsewhere)).toBe('Tool "elsewhere" timed out after 60 ms and was stopped.');
    // A finished call is no longer cancelled by a later abort of its signal.
    const finished = await executeTool(
      defineTool({
        name: 'done',
        description: 'Answers at once.',
        inputSchema: z.object({}),
        permission: 'read-only',
        execute: async () => textResult('done'),
      }),
      {},
      testContext({ signal: other.signal }),
    );
    other.abort();
    expect(resultText(finished)).toBe('done');
  });

  describe('in a process of its own', () => {
    const child = join(dirname(fileURLToPath(import.meta.url)), 'test', 'deadline-child.ts');
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const runChild = (mode: string, timeoutMs: number) =>
      execFileAsync(
        process.execPath,
        ['--conditions=@boxagnts/source', '--import', tsx, child, mode, String(timeoutMs)],
        {
          timeout: 20_000,
        },
      );

    it('keeps the process alive until a hanging call times out, so its result is not lost', async () => {
      const { stdout } = await runChild('hang', 300);
      expect(stdout).toBe('Tool "child" timed out after 300 ms and was stopped.');
    });

    it('lets the process exit once its calls are done, though their deadline is far away', async () => {
      // With a deadline timer that kept the process open, this child would live for the full 60 s and
      // be killed by the 20 s limit above.
      const { stdout } = await runChild('answer', 60_000);
      expect(stdout).toBe('done');
    });
  });
});

describe('executeToolThen', () => {
  /** The result `executeToolThen` hands over, and whether it came before the call returned. */
  function resultOf(
    tool: AnyTool,
    input: unknown,
    context: ToolContext,
  ): { sync: boolean; result: Promise<ToolResult>; calls: () => number } {
    let calls = 0;
    let returned = false;
    let sync = false;
    const result = new Promise<ToolResult>((resolve) => {
      executeToolThen(tool, input, context, (value) => {
        calls++;
        sync = !returned;
        resolve(value);
      });
      returned = true;
    });
    return { sync, result, calls: () => calls };
  }

  it('hands over what executeTool resolves to, once, for every way a call ends', async () => {
    const throwing = defineTool({
      name: 'throwing',
      description: 'Throws.',
      inputSchema: z.object({}),
      permission: 'read-only',
      execute: () => {
        throw new Error('broken');
      },
    });
    const cancelled = new AbortController();
    cancelled.abort();
    const cases: Array<[AnyTool, unknown, ToolContext]> = [
      [add, { a: 2, b: 3 }, testContext()],
      [add, { a: 'two' }, testContext()],
      [throwing, {}, testContext()],
      [add, { a: 1, b: 1 }, testContext({ signal: cancelled.signal })],
    ];
    for (const [tool, input, context] of cases) {
      const expected = await executeTool(tool, input, context);
      const handed = resultOf(tool, input, context);
      expect(await handed.result).toEqual(expected);
      await new Promise((resolve) => setImmediate(resolve));
      expect(handed.calls()).toBe(1);
    }
  });

  it('answers a call refused before it runs at once, and one that runs only later', () => {
    expect(resultOf(add, { a: 'two' }, testContext()).sync).toBe(true);
    expect(resultOf(add, { a: 2, b: 3 }, testContext()).sync).toBe(false);
  });

  it('counts the timeout from the start time it is given', async () => {
    // Started a minute ago with a minute to run: due at once (counted from now, it would run for a
    // minute and this test would time out).
    let result: ToolResult | undefined;
    await new Promise<void>((resolve) => {
      executeToolThen(
        hanging('late'),
        {},
        testContext(),
        (value) => {
          result = value;
          resolve();
        },
        { timeoutMs: 60_000, startedAt: performance.now() - 60_000 },
      );
    });
    expect(resultText(result as ToolResult)).toBe('Tool "late" timed out after 60000 ms and was stopped.');
  });

  it('throws what executeTool rejects with: a schema that throws', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'A refinement with a bug.',
      inputSchema: z.object({}).refine(() => {
        throw new Error('refinement bug');
      }),
      permission: 'read-only',
      execute: async () => textResult('never'),
    });
    await expect(executeTool(broken, {}, testContext())).rejects.toThrow('refinement bug');
    expect(() => executeToolThen(broken, {}, testContext(), () => undefined)).toThrow('refinement bug');
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
