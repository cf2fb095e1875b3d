import type { AgentRunner, SubAgentRequest } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { LazyAgentRunner } from './lazy-agent-runner.js';

function recordingRunner(calls: string[]): AgentRunner {
  return {
    run: async (request) => {
      calls.push(`run:${request.prompt}`);
      return { id: 'a1', status: 'completed', text: 'ok' } as never;
    },
    start: async (request) => {
      calls.push(`start:${request.prompt}`);
      return { id: 'a2' };
    },
    status: async (id) => {
      calls.push(`status:${id}`);
      return undefined;
    },
    wait: async (id, timeoutMs) => {
      calls.push(`wait:${id}:${timeoutMs}`);
      return undefined;
    },
    cancel: async (id) => {
      calls.push(`cancel:${id}`);
      return true;
    },
  };
}

describe('LazyAgentRunner', () => {
  it('opens the runner for its tool call only on first use, once, and forwards every method', async () => {
    const opened: string[] = [];
    const calls: string[] = [];
    const lazy = new LazyAgentRunner((toolCallId) => {
      opened.push(toolCallId);
      return recordingRunner(calls);
    }, 'call_7');
    expect(opened).toEqual([]);
    const request: SubAgentRequest = { description: 'look', prompt: 'look around' };
    const signal = new AbortController().signal;
    expect(await lazy.run(request, signal)).toMatchObject({ id: 'a1' });
    expect(await lazy.start(request)).toEqual({ id: 'a2' });
    expect(await lazy.status('a2')).toBeUndefined();
    expect(await lazy.wait('a2', 50, signal)).toBeUndefined();
    expect(await lazy.cancel('a2')).toBe(true);
    expect(opened).toEqual(['call_7']);
    expect(calls).toEqual(['run:look around', 'start:look around', 'status:a2', 'wait:a2:50', 'cancel:a2']);
  });
});
