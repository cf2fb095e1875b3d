import { INTERRUPTED_TOOL_RESULT } from '@boxagnts/query';
import { afterEach, describe, expect, it } from 'vitest';
import { type GatewayChild, spawnGateway } from '../test/spawn-gateway.js';
import { readSse, type SseMessage } from '../test/sse-client.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
const children: GatewayChild[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) await child.kill();
  await current?.close();
  current = undefined;
});

const long = 'chunk '.repeat(400).trim();

async function startRun(url: string, session: string, onRestart: string): Promise<string> {
  const response = await fetch(`${url}/sessions/${session}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input: `work on ${session}`, onRestart }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

async function firstEvents(url: string, runId: string, count: number): Promise<SseMessage[]> {
  let deltas = 0;
  const { messages } = await readSse(await fetch(`${url}/runs/${runId}/events`), (message) => {
    if (message.event === 'text-delta') deltas++;
    return deltas >= count;
  });
  return messages;
}

describe('restart safety', () => {
  it('a gateway killed with SIGKILL mid-run loses no acknowledged event; the next start resumes or interrupts per run', async () => {
    current = await createTestWorkspace({
      chunking: { textDelta: 6, delayMs: 25 },
      steps: [{ text: long }, { text: long }, { text: 'Resumed and finished.' }],
    });
    await current.workspace.close();
    const first = await spawnGateway(current.dir);
    children.push(first);
    const resumeRun = await startRun(first.url, 'keep', 'resume');
    const seenResume = await firstEvents(first.url, resumeRun, 3);
    const interruptRun = await startRun(first.url, 'drop', 'interrupt');
    const seenInterrupt = await firstEvents(first.url, interruptRun, 3);
    await first.kill();
    children.splice(children.indexOf(first), 1);

    const second = await spawnGateway(current.dir);
    children.push(second);
    expect(second.recovered.resumed).toEqual([resumeRun]);
    expect(second.recovered.interrupted).toEqual([interruptRun]);

    const after = await readSse(await fetch(`${second.url}/runs/${resumeRun}/events`));
    const key = (message: SseMessage) => `${message.id}|${message.event}|${message.data}`;
    expect(after.messages.slice(0, seenResume.length).map(key)).toEqual(seenResume.map(key));
    const types = after.messages.map((message) => message.event);
    expect(types).toContain('run-interrupted');
    expect(types.indexOf('run-resumed')).toBeGreaterThan(types.indexOf('run-interrupted'));
    expect(JSON.parse(after.messages.at(-1)?.data as string)).toMatchObject({
      status: 'completed',
      text: 'Resumed and finished.',
    });
    const ids = after.messages.map((message) => Number(message.id));
    expect(ids).toEqual(ids.map((_, index) => index + 1));

    const dropped = await readSse(await fetch(`${second.url}/runs/${interruptRun}/events`));
    expect(dropped.messages.slice(0, seenInterrupt.length).map(key)).toEqual(seenInterrupt.map(key));
    expect(JSON.parse(dropped.messages.at(-1)?.data as string)).toMatchObject({ status: 'interrupted' });

    const kept = (await (await fetch(`${second.url}/sessions/keep`)).json()) as {
      messages: { message: { role: string; content: unknown } }[];
    };
    expect(kept.messages.map((entry) => entry.message.role)).toEqual(['user', 'assistant']);
    expect(JSON.stringify(kept.messages[1]?.message.content)).toContain('Resumed and finished.');
    const runs = (await (await fetch(`${second.url}/sessions/drop/runs`)).json()) as { runs: { status: string }[] };
    expect(runs.runs.map((run) => run.status)).toEqual(['interrupted']);
  }, 90_000);

  it('a run killed during a tool call resumes from a repaired history (the interrupted call gets an error result, not a re-run)', async () => {
    current = await createTestWorkspace({
      steps: [
        {
          content: [
            { type: 'text', text: 'Waiting.' },
            { type: 'tool_call', name: 'sleep', input: { seconds: 30 } },
          ],
        },
        { text: 'Recovered after the restart.' },
      ],
    });
    await current.workspace.close();
    const first = await spawnGateway(current.dir);
    children.push(first);
    const runId = await startRun(first.url, 'tool', 'resume');
    await readSse(await fetch(`${first.url}/runs/${runId}/events`), (message) => message.event === 'tool-start');
    await first.kill();
    children.splice(children.indexOf(first), 1);

    const second = await spawnGateway(current.dir);
    children.push(second);
    expect(second.recovered.resumed).toEqual([runId]);
    const events = await readSse(await fetch(`${second.url}/runs/${runId}/events`));
    expect(JSON.parse(events.messages.at(-1)?.data as string)).toMatchObject({
      status: 'completed',
      text: 'Recovered after the restart.',
    });
    expect(events.messages.filter((message) => message.event === 'tool-start')).toHaveLength(1);
    const resumedCall = current.mock.requests.at(-1)?.body as { messages: { role: string }[] };
    expect(resumedCall.messages.at(-1)?.role).toBe('user');
    expect(JSON.stringify(resumedCall.messages.at(-1))).toContain(INTERRUPTED_TOOL_RESULT.slice(0, 40));
  }, 90_000);
});
