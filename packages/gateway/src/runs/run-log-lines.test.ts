import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { CANARY_KEY, createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

describe('structured run log lines', () => {
  it('logs one JSON-ready run-end entry per run, with ids and status but not the prompt or answer', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'SECRET-ANSWER-TEXT' }] });
    const entries: Record<string, unknown>[] = [];
    gateway = await startGateway({ workspace: current.workspace, port: 0, log: (entry) => entries.push(entry) });
    const response = await fetch(`${gateway.url}/sessions/logged-1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'SECRET-PROMPT-TEXT', mode: 'wait' }),
    });
    const run = (await response.json()) as { id: string; status: string };
    expect(run.status).toBe('completed');
    const ends = entries.filter((entry) => entry.event === 'run-end');
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({
      runId: run.id,
      sessionId: 'logged-1',
      agent: 'build',
      status: 'completed',
      reason: 'end_turn',
    });
    expect(typeof ends[0]?.durationMs).toBe('number');
    const text = JSON.stringify(entries);
    expect(text).not.toContain('SECRET-PROMPT-TEXT');
    expect(text).not.toContain('SECRET-ANSWER-TEXT');
    expect(text).not.toContain(CANARY_KEY);
  });
});
