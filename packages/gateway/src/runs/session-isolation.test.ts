import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

describe('sessions served at once', () => {
  it('one session entering plan mode does not put a concurrent session of the same agent in plan mode', async () => {
    current = await createTestWorkspace(
      {
        rules: [
          {
            match: { contains: 'SESSION-A' },
            steps: [
              { content: [{ type: 'tool_call', name: 'enter_plan_mode', input: {} }] },
              { content: [{ type: 'tool_call', name: 'sleep', input: { seconds: 2 } }] },
              { text: 'A done' },
            ],
          },
          {
            match: { contains: 'SESSION-B' },
            steps: [
              { content: [{ type: 'tool_call', name: 'write', input: { file_path: 'b.txt', content: 'from B' } }] },
              { text: 'B done' },
            ],
          },
        ],
      },
      { permissions: { allow: ['write'] } },
    );
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const url = gateway.url;
    const a = (await (await fetch(`${url}/sessions/a/runs`, json({ input: 'SESSION-A plan first' }))).json()) as {
      id: string;
    };
    await readSse(
      await fetch(`${url}/runs/${a.id}/events`),
      (message) => message.event === 'tool-start' && message.data.includes('sleep'),
    );
    const b = (await (
      await fetch(`${url}/sessions/b/runs`, json({ input: 'SESSION-B write a file', mode: 'wait' }))
    ).json()) as { id: string; status: string };
    expect(b.status).toBe('completed');
    const events = await readSse(await fetch(`${url}/runs/${b.id}/events`));
    const writeEnd = events.messages.find((message) => message.event === 'tool-end');
    expect(JSON.parse(writeEnd?.data as string).result.isError ?? false).toBe(false);
    expect(await readFile(join(current.workspace.paths.root, 'b.txt'), 'utf8')).toBe('from B');
    expect(((await (await fetch(`${url}/runs/${a.id}/wait`)).json()) as { status: string }).status).toBe('completed');
  }, 60_000);
});
