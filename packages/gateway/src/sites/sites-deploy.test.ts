import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

function getSite(port: number, site: string, path: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, setHost: false, headers: { host: `${site}.localhost:${port}` } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('an agent deploys a site by writing it', () => {
  it('a run whose write tool makes sites/demo/index.html publishes it at once, no restart, no API call', async () => {
    const page = '<!doctype html><h1>Code-quality report</h1>';
    current = await createTestWorkspace(
      {
        steps: [
          {
            content: [
              { type: 'tool_call', name: 'write', input: { file_path: 'sites/demo/index.html', content: page } },
            ],
          },
          {
            content: [
              {
                type: 'tool_call',
                name: 'write',
                input: { file_path: 'sites/demo/report/data.json', content: '{"ok":true}' },
              },
            ],
          },
          { text: 'Published at the demo site.' },
        ],
      },
      { permissions: { allow: ['write'] } },
    );
    gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
    const sitesPort = gateway.sitesListener?.port as number;
    expect((await getSite(sitesPort, 'demo', '/')).status).toBe(404);
    const run = await fetch(`${gateway.url}/sessions/deploy/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'Build the report site and deploy it as "demo".', mode: 'wait' }),
    });
    const record = (await run.json()) as { status: string };
    expect(record.status).toBe('completed');
    const served = await getSite(sitesPort, 'demo', '/');
    expect(served).toEqual({ status: 200, text: page });
    expect((await getSite(sitesPort, 'demo', '/report/data.json')).text).toBe('{"ok":true}');
    // The API lists the site the agent made, with the URL it is served at.
    const listed = (await (await fetch(`${gateway.url}/sites`)).json()) as { sites: { name: string; url: string }[] };
    expect(listed.sites).toEqual([
      expect.objectContaining({ name: 'demo', url: `http://demo.localhost:${sitesPort}/` }),
    ]);
  }, 60_000);
});
