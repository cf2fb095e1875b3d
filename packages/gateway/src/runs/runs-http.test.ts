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

const slowText = 'word '.repeat(60).trim();
const slowScript = {
  chunking: { textDelta: 5, delayMs: 15 },
  steps: [{ text: slowText }, { text: 'second run' }, { text: 'third run' }],
};

async function start(script: object, heartbeatMs = 15_000) {
  current = await createTestWorkspace(script as never);
  gateway = await startGateway({
    workspace: current.workspace,
    port: 0,
    heartbeatMs,
    sandbox: { bash: false, jsExec: false },
  });
  return gateway;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${gateway?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('runs over HTTP', () => {
  it('answers at once with a run id, streams every event in order, and resumes exactly after Last-Event-ID', async () => {
    await start(slowScript);
    const started = await post('/sessions/s1/runs', { input: 'Say many words.' });
    expect(started.status).toBe(202);
    const run = (await started.json()) as { id: string; status: string };
    expect(['queued', 'running']).toContain(run.status);

    const first = await readSse(
      await fetch(`${gateway?.url}/runs/${run.id}/events`),
      (message) => message.event === 'text-delta',
    );
    const dropAt = first.messages.at(-1)?.id as string;
    const resumed = await readSse(
      await fetch(`${gateway?.url}/runs/${run.id}/events`, { headers: { 'last-event-id': dropAt } }),
    );
    const all = await readSse(await fetch(`${gateway?.url}/runs/${run.id}/events`));
    const ids = all.messages.map((message) => Number(message.id));
    expect(ids).toEqual(ids.map((_, index) => index + 1));
    expect(resumed.messages.map((message) => Number(message.id))).toEqual(ids.filter((id) => id > Number(dropAt)));
    expect([...first.messages, ...resumed.messages].map((message) => message.id)).toEqual(
      all.messages.map((m) => m.id),
    );
    const text = all.messages
      .filter((message) => message.event === 'text-delta')
      .map((message) => JSON.parse(message.data).delta)
      .join('');
    expect(text).toBe(slowText);
    expect(all.messages.at(-1)?.event).toBe('run-end');
    expect(JSON.parse(all.messages.at(-1)?.data as string)).toMatchObject({ status: 'completed', reason: 'end_turn' });

    const record = (await (await fetch(`${gateway?.url}/runs/${run.id}`)).json()) as { status: string; text: string };
    expect(record).toMatchObject({ status: 'completed', text: slowText });
    const session = (await (await fetch(`${gateway?.url}/sessions/s1`)).json()) as { messages: unknown[] };
    expect(session.messages).toHaveLength(2);
    const usage = (await (await fetch(`${gateway?.url}/usage?groupBy=session`)).json()) as {
      rows: { key: string; calls: number }[];
    };
    expect(usage.rows).toEqual([expect.objectContaining({ key: 's1', calls: 1 })]);
  });

  it('lets several watchers follow one run and sends heartbeats on a quiet stream', async () => {
    await start({ chunking: { textDelta: 5, delayMs: 40 }, steps: [{ text: slowText }] }, 50);
    const run = (await (await post('/sessions/w/runs', { input: 'go' })).json()) as { id: string };
    const watchers = await Promise.all(
      [0, 1, 2].map(async () => readSse(await fetch(`${gateway?.url}/runs/${run.id}/events`))),
    );
    const lists = watchers.map((watcher) => watcher.messages.map((message) => `${message.id}:${message.event}`));
    expect(lists[1]).toEqual(lists[0]);
    expect(lists[2]).toEqual(lists[0]);
    expect(watchers.some((watcher) => watcher.comments > 0)).toBe(true);
  });

  it('waits for a run with mode "wait" and rejects, enqueues or interrupts a second run on a busy session', async () => {
    await start(slowScript);
    const first = (await (await post('/sessions/b/runs', { input: 'one' })).json()) as { id: string };
    const rejected = await post('/sessions/b/runs', { input: 'two' });
    expect(rejected.status).toBe(409);
    expect(((await rejected.json()) as { error: { message: string } }).error.message).toContain('enqueue');
    const queued = (await (await post('/sessions/b/runs', { input: 'two', busy: 'enqueue' })).json()) as {
      id: string;
      status: string;
    };
    expect(queued.status).toBe('queued');
    const waited = (await (await fetch(`${gateway?.url}/runs/${queued.id}/wait`)).json()) as {
      status: string;
      text: string;
    };
    expect(waited).toMatchObject({ status: 'completed', text: 'second run' });
    expect(((await (await fetch(`${gateway?.url}/runs/${first.id}`)).json()) as { status: string }).status).toBe(
      'completed',
    );
    const session = (await (await fetch(`${gateway?.url}/sessions/b`)).json()) as {
      messages: { message: { role: string } }[];
    };
    expect(session.messages.map((entry) => entry.message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('interrupts the running run when the new one says busy: "interrupt", and cancels on request', async () => {
    await start({ chunking: { textDelta: 2, delayMs: 30 }, steps: [{ text: slowText }, { text: 'after interrupt' }] });
    const first = (await (await post('/sessions/i/runs', { input: 'long' })).json()) as { id: string };
    await readSse(await fetch(`${gateway?.url}/runs/${first.id}/events`), (message) => message.event === 'text-delta');
    const second = await post('/sessions/i/runs', { input: 'now this', busy: 'interrupt', mode: 'wait' });
    expect(((await second.json()) as { text: string }).text).toBe('after interrupt');
    expect(((await (await fetch(`${gateway?.url}/runs/${first.id}`)).json()) as { status: string }).status).toBe(
      'cancelled',
    );
  });

  it('injects a user message into a running run (the loop takes it before its next call)', async () => {
    await start({
      chunking: { textDelta: 4, delayMs: 20 },
      steps: [
        {
          content: [
            { type: 'text', text: 'Sleeping a moment.' },
            { type: 'tool_call', name: 'sleep', input: { seconds: 1 } },
          ],
        },
        { text: 'Saw your note.' },
      ],
    });
    const run = (await (await post('/sessions/inj/runs', { input: 'start' })).json()) as { id: string };
    await readSse(await fetch(`${gateway?.url}/runs/${run.id}/events`), (message) => message.event === 'tool-start');
    const injected = await post(`/runs/${run.id}/messages`, { content: 'Also mention the note.' });
    expect(injected.status).toBe(202);
    const done = (await (await fetch(`${gateway?.url}/runs/${run.id}/wait`)).json()) as { status: string };
    expect(done.status).toBe('completed');
    const secondCall = current?.mock.requests[1]?.rawBody ?? '';
    expect(secondCall).toContain('Also mention the note.');
    const late = await post(`/runs/${run.id}/messages`, { content: 'too late' });
    expect(late.status).toBe(409);
  });

  it('refuses bad run bodies with errors that name the field', async () => {
    await start({ steps: [] });
    const response = await post('/sessions/x/runs', { input: '', busy: 'sometimes', extra: 1 });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { reason: string; issues: { path: string }[] } };
    expect(body.error.reason).toBe('invalid-request');
    expect(body.error.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(['input', 'busy']));
    const broken = await fetch(`${gateway?.url}/sessions/x/runs`, { method: 'POST', body: '{"input": ' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { message: string } }).error.message).toContain('not valid JSON');
    expect((await fetch(`${gateway?.url}/runs/nope`)).status).toBe(404);
  });
});
