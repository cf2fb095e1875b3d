import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { openWorkspace } from '@boxagnts/workspace';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, runBin } from '../test/run-bin.js';
import { CANARY_KEY } from '../test/test-workspace.js';

const cleanups = cleanupsAfterEach();
const cli = runBin;

async function workspaceWithMock(script: object): Promise<{ dir: string; mock: MockServer }> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-cli-'));
  const mock = await startMockServer({ script: script as never });
  cleanups.push(async () => {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  });
  const init = await cli(['init', dir]);
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('workspace ready');
  const configPath = join(dir, 'boxagnts.json');
  expect(await readFile(configPath, 'utf8')).not.toBe('');
  await writeFile(
    configPath,
    JSON.stringify({ providers: { anthropic: { baseUrl: mock.url, apiKey: { secret: 'anthropic' } } } }),
  );
  const workspace = await openWorkspace(dir);
  await workspace.secrets.set('anthropic', CANARY_KEY);
  await workspace.close();
  return { dir, mock };
}

describe('the boxagnts CLI', () => {
  it('init then run "<prompt>" streams the answer with tool progress, exit code 0', async () => {
    const { dir } = await workspaceWithMock({
      steps: [{ content: [{ type: 'tool_call', name: 'glob', input: { pattern: '*' } }] }, { text: 'All done here.' }],
    });
    const result = await cli(['run', 'List the files.', '--dir', dir]);
    expect(result.stderr).toContain('[tool] glob');
    expect(result.stdout.trim()).toBe('All done here.');
    expect(result.code).toBe(0);
  }, 120_000);

  it('run --json prints one event per line and the outcome last; a failed run exits 1', async () => {
    const { dir } = await workspaceWithMock({ steps: [{ text: 'json answer' }] });
    const ok = await cli(['run', 'hi', '--dir', dir, '--json', '--session', 'cli-session']);
    const lines = ok.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; reason?: string; text?: string });
    expect(lines.at(-1)).toMatchObject({
      type: 'outcome',
      reason: 'end_turn',
      text: 'json answer',
      sessionId: 'cli-session',
    });
    expect(lines.some((line) => line.type === 'text-delta')).toBe(true);
    expect(ok.code).toBe(0);
    const failed = await cli(['run', 'again', '--dir', dir, '--json']);
    expect(JSON.parse(failed.stdout.trim().split('\n').at(-1) as string)).toMatchObject({
      type: 'outcome',
      reason: 'error',
    });
    expect(failed.code).toBe(1);
    expect(`${ok.stdout}${ok.stderr}${failed.stdout}${failed.stderr}`).not.toContain(CANARY_KEY);
  }, 120_000);

  it('refuses bad options with a message that says what to change', async () => {
    const result = await cli(['run', 'x', '--max-turns', 'lots']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('must be a positive number');
  }, 120_000);

  it('init then serve gives a working server on an empty folder', async () => {
    const { dir } = await workspaceWithMock({ steps: [{ text: 'served answer' }] });
    let url: string | undefined;
    let body: unknown;
    const served = cli(['serve', '--dir', dir, '--port', '0'], {
      onStdout: (text, child) => {
        const line = text.split('\n').find((candidate) => candidate.startsWith('{'));
        if (line === undefined || url !== undefined) return;
        url = (JSON.parse(line) as { url: string }).url;
        void (async () => {
          const response = await fetch(`${url}/sessions/s/runs`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ input: 'hello', mode: 'wait' }),
          });
          body = await response.json();
          child.kill('SIGTERM');
        })();
      },
    });
    const result = await served;
    expect(body).toMatchObject({ status: 'completed', text: 'served answer' });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('"message":"request"');
  }, 120_000);
});
