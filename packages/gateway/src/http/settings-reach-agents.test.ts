import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { readSse } from '../test/sse-client.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

/** Each prompt asking to read gets a `read` call; once its result is in the request the model says done. */
const script = {
  rules: [
    { match: { contains: '"tool_result"' }, steps: [{ text: 'done after the tool' }], repeatLast: true },
    {
      match: { contains: 'READ-NOTES' },
      steps: [{ content: [{ type: 'tool_call', name: 'read', input: { file_path: 'notes.md' } }] }],
      repeatLast: true,
    },
  ],
  steps: [{ text: 'plain answer' }],
};

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

const json = (method: string, body: unknown) => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Runs one prompt on a session to its end and returns the `read` call's result text. */
async function readResult(url: string, sessionId: string): Promise<string> {
  const started = await fetch(`${url}/sessions/${sessionId}/runs`, json('POST', { input: 'READ-NOTES please' }));
  expect(started.status).toBe(202);
  const { id } = (await started.json()) as { id: string };
  const { messages } = await readSse(await fetch(`${url}/runs/${id}/events`));
  const end = messages.find((message) => message.event === 'tool-end');
  return end === undefined ? '' : JSON.stringify(JSON.parse(end.data).result.content);
}

describe('settings written through the API reach the agents the gateway already composed', () => {
  it('a deny rule saved after a run applies to the next run on the same gateway', async () => {
    current = await createTestWorkspace(script as never);
    await writeFile(join(current.dir, 'root', 'notes.md'), 'SECRET-NOTES-CONTENT');
    gateway = await startGateway({
      workspace: current.workspace,
      port: 0,
      sandbox: { bash: false, jsExec: false },
      cron: false,
    });
    // The first run composes the agent (and the pool keeps it for the next run).
    expect(await readResult(gateway.url, 's1')).toContain('SECRET-NOTES-CONTENT');
    const patched = await fetch(`${gateway.url}/settings/permissions`, json('PATCH', { deny: ['read'] }));
    expect(patched.status).toBe(200);
    const second = await readResult(gateway.url, 's2');
    expect(second).not.toContain('SECRET-NOTES-CONTENT');
    expect(second.toLowerCase()).toMatch(/denied|deny|not allowed|refused/);
    // The listings' agent is made again too: GET /tools still answers.
    expect((await fetch(`${gateway.url}/tools`)).status).toBe(200);
  });
});
