import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { readSse } from '../test/sse-client.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('runs at their limits', () => {
  it('keeps every run of 20 concurrent sessions complete, dense and in order', async () => {
    const count = 20;
    current = await createTestWorkspace({
      chunking: { textDelta: 3, delayMs: 2 },
      steps: Array.from({ length: count }, () => ({ text: 'same answer for everyone' })),
    });
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const url = gateway.url;
    const ids = await Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const response = await fetch(`${url}/sessions/c${index}/runs`, json({ input: `question ${index}` }));
        return ((await response.json()) as { id: string }).id;
      }),
    );
    const streams = await Promise.all(ids.map(async (id) => readSse(await fetch(`${url}/runs/${id}/events`))));
    for (const stream of streams) {
      const seqs = stream.messages.map((message) => Number(message.id));
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
      expect(stream.messages.filter((message) => message.event === 'run-end')).toHaveLength(1);
      expect(JSON.parse(stream.messages.at(-1)?.data as string)).toMatchObject({
        status: 'completed',
        text: 'same answer for everyone',
      });
    }
    const sessions = (await (await fetch(`${url}/sessions?limit=100`)).json()) as {
      sessions: { messageCount: number }[];
    };
    expect(sessions.sessions.map((session) => session.messageCount)).toEqual(Array(count).fill(2));
  }, 60_000);

  it('treats repeated cancels as one and a cancel of a finished run as a no-op', async () => {
    current = await createTestWorkspace({
      chunking: { textDelta: 1, delayMs: 30 },
      steps: [{ text: 'x'.repeat(200) }, { text: 'next' }],
    });
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const url = gateway.url;
    const run = (await (await fetch(`${url}/sessions/k/runs`, json({ input: 'go' }))).json()) as { id: string };
    const queued = (await (await fetch(`${url}/sessions/k/runs`, json({ input: 'then', busy: 'enqueue' }))).json()) as {
      id: string;
    };
    await readSse(await fetch(`${url}/runs/${run.id}/events`), (message) => message.event === 'text-delta');
    await Promise.all([1, 2, 3].map(() => fetch(`${url}/runs/${queued.id}/cancel`, { method: 'POST' })));
    await Promise.all([1, 2, 3].map(() => fetch(`${url}/runs/${run.id}/cancel`, { method: 'POST' })));
    const final = (await (await fetch(`${url}/runs/${run.id}/wait`)).json()) as { status: string };
    expect(final.status).toBe('cancelled');
    for (const id of [run.id, queued.id]) {
      const events = await readSse(await fetch(`${url}/runs/${id}/events`));
      expect(events.messages.filter((message) => message.event === 'run-end')).toHaveLength(1);
    }
    expect(((await (await fetch(`${url}/runs/${queued.id}`)).json()) as { status: string }).status).toBe('cancelled');
    const again = await fetch(`${url}/runs/${run.id}/cancel`, { method: 'POST' });
    expect(((await again.json()) as { status: string }).status).toBe('cancelled');
    // The cancelled queued run never reached the model; the session is free for a new run.
    const next = (await (await fetch(`${url}/sessions/k/runs`, json({ input: 'fresh', mode: 'wait' }))).json()) as {
      status: string;
    };
    expect(next.status).toBe('completed');
  });

  it('answers hostile cursors and bodies with the start of the stream or a 400, never a crash', async () => {
    current = await createTestWorkspace({ steps: [{ text: 'fine' }] });
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const url = gateway.url;
    const run = (await (await fetch(`${url}/sessions/h/runs`, json({ input: 'go', mode: 'wait' }))).json()) as {
      id: string;
    };
    const total = (await readSse(await fetch(`${url}/runs/${run.id}/events`))).messages.length;
    for (const cursor of ['-5', 'abc', '1e309', '9007199254740993', ' ', '0x10']) {
      const stream = await readSse(
        await fetch(`${url}/runs/${run.id}/events`, { headers: { 'last-event-id': cursor } }),
      );
      expect(stream.messages.length).toBe(total);
    }
    const beyond = await readSse(
      await fetch(`${url}/runs/${run.id}/events`, { headers: { 'last-event-id': String(total) } }),
    );
    expect(beyond.messages).toEqual([]);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const nested = await fetch(`${url}/sessions/h/runs`, { method: 'POST', body: `{"input": ${deep}}` });
    expect(nested.status).toBe(400);
    const wrongTypes = await fetch(
      `${url}/sessions/h/runs`,
      json({ input: { role: 'user' }, maxTurns: -1, budgetUsd: 'lots' }),
    );
    expect(wrongTypes.status).toBe(400);
    const issues = ((await wrongTypes.json()) as { error: { issues: { path: string }[] } }).error.issues.map(
      (issue) => issue.path,
    );
    expect(issues).toEqual(expect.arrayContaining(['input', 'maxTurns', 'budgetUsd']));
    const longId = await fetch(`${url}/sessions/${'x'.repeat(500)}/runs`, json({ input: 'go' }));
    expect(longId.status).toBe(400);
    expect(((await longId.json()) as { error: { message: string } }).error.message).toContain('session id');
    const oddId = await fetch(`${url}/sessions/${encodeURIComponent('a b\n<script>')}/runs`, json({ input: 'go' }));
    expect(oddId.status).toBe(400);
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });
});
