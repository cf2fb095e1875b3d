import type { JsonObject, ToolUseBlock } from '@boxagnts/api';
import { type AnyTool, defineTool, resultText, type ToolContext, textResult } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runToolCalls } from './run-tool-calls.js';

function call(id: string, name: string, input: JsonObject = {}): ToolUseBlock {
  return { type: 'tool_use', id, name, input };
}

function options(tools: AnyTool[], signal = new AbortController().signal) {
  const context: ToolContext = { root: '/project', sessionId: 's1', signal, turnId: 'turn-3', toolCallId: '' };
  return {
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    context,
    turn: 3,
    maxConcurrency: 4,
    timeoutMs: 5_000,
    emit: () => undefined,
  };
}

describe('the context a tool call gets', () => {
  it('carries the call id, the turn, the caller fields and a signal, also through a spread', async () => {
    let seen: ToolContext | undefined;
    let spread: ToolContext | undefined;
    const inspect = defineTool({
      name: 'inspect',
      description: 'Looks at its context.',
      inputSchema: z.object({}),
      permission: 'read-only',
      execute: async (_input, context) => {
        seen = context;
        spread = { ...context };
        return textResult('seen');
      },
    });
    const [block] = await runToolCalls([call('call_1', 'inspect')], options([inspect]));
    expect(block).toEqual({ type: 'tool_result', toolUseId: 'call_1', content: 'seen' });
    expect(seen).toMatchObject({ root: '/project', sessionId: 's1', turnId: 'turn-3', toolCallId: 'call_1' });
    expect(Object.keys(seen ?? {}).sort()).toEqual(['root', 'sessionId', 'signal', 'toolCallId', 'turnId']);
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    expect(seen?.signal.aborted).toBe(false);
    expect(spread?.signal).toBe(seen?.signal);
    expect(spread?.toolCallId).toBe('call_1');
  });

  it('gives each of several calls its own id and aborts a running call when the run is cancelled', async () => {
    const controller = new AbortController();
    const ids: string[] = [];
    let abortedWith: unknown;
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until cancelled.',
      inputSchema: z.object({}),
      permission: 'read-only',
      execute: (_input, context) => {
        ids.push(context.toolCallId);
        return new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            abortedWith = context.signal.reason;
            resolve(textResult('stopped'));
          });
          if (ids.length === 2) controller.abort(new Error('user pressed stop'));
        });
      },
    });
    const blocks = await runToolCalls([call('a', 'wait'), call('b', 'wait')], options([wait], controller.signal));
    expect(ids).toEqual(['a', 'b']);
    expect(blocks.map((block) => block.content)).toEqual(['Tool "wait" was cancelled.', 'Tool "wait" was cancelled.']);
    expect((abortedWith as Error).message).toBe('user pressed stop');
  });

  it('turns a tool that throws before returning a promise into an error result', async () => {
    const sync = {
      ...defineTool({
        name: 'sync',
        description: 'Throws at once.',
        inputSchema: z.object({}),
        permission: 'read-only',
        execute: async () => textResult('unreachable'),
      }),
      execute: () => {
        throw new Error('no promise here');
      },
    } as AnyTool;
    const [block] = await runToolCalls([call('c', 'sync')], options([sync]));
    expect(block).toMatchObject({ isError: true, content: 'Tool "sync" failed: no promise here' });
  });

  it('keeps the timeout: the tool is stopped and told through its signal', async () => {
    let reason: unknown;
    const slow = defineTool({
      name: 'slow',
      description: 'Never finishes by itself.',
      inputSchema: z.object({}),
      permission: 'read-only',
      timeoutMs: 20,
      execute: (_input, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            reason = context.signal.reason;
            resolve(textResult('late'));
          });
        }),
    });
    const [block] = await runToolCalls([call('d', 'slow')], options([slow]));
    expect(resultText({ content: [{ type: 'text', text: String(block?.content) }] })).toBe(
      'Tool "slow" timed out after 20 ms and was stopped.',
    );
    expect((reason as Error).message).toBe('timeout');
  });
});
