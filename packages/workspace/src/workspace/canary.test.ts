import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { createProvider } from '@boxagnts/api';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkspace } from './open-workspace.js';
import type { WorkspaceLogger } from './workspace-logger.js';

// The canary test: a key planted in the secrets file must never show up anywhere else — not in the
// database (WAL included), the config, the logs, error messages, or any value the API hands back.

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

function capturedLogger(lines: string[]): WorkspaceLogger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields)} ${inspect(fields, { depth: 10 })}`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

function renderings(value: unknown): string[] {
  return [JSON.stringify(value) ?? '', inspect(value, { depth: 20, showHidden: true, getters: true }), String(value)];
}

describe('the canary key', () => {
  let base: string;
  let mock: MockServer;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'boxagnts-canary-'));
    mock = await startMockServer({ script: { steps: [{ text: 'Hello from the mock.' }], repeatLast: true } });
  });
  afterEach(async () => {
    await mock.close();
    await rm(base, { recursive: true, force: true });
  });

  it('appears only in the secrets file after a realistic run', async () => {
    const canary = `sk-canary-${randomBytes(16).toString('hex')}`;
    const dir = join(base, 'workspace');
    const logs: string[] = [];
    const publicValues: unknown[] = [];
    const errors: unknown[] = [];
    const logger = capturedLogger(logs);

    const setup = await openWorkspace(dir, { env: {}, logger });
    await setup.secrets.set('anthropic', canary);
    await setup.updateConfig((draft) => {
      draft.providers = { anthropic: { apiKey: { secret: 'anthropic' }, baseUrl: mock.url } };
    });
    await setup.close();

    const workspace = await openWorkspace(dir, { env: {}, logger });
    publicValues.push(workspace, workspace.config, workspace.agents, workspace.paths, workspace.secrets);
    const key = await workspace.providerKey('anthropic');
    if (key === undefined) throw new Error('the planted key must resolve');
    expect(key.reveal()).toBe(canary);
    publicValues.push(key, await workspace.secrets.get('anthropic'), await workspace.secrets.list());
    logger.info('calling the provider', { key, provider: 'anthropic' });

    // A real request with the key, against the mock LLM server on loopback.
    const provider = createProvider({ provider: 'anthropic', apiKey: key.reveal(), baseURL: mock.url });
    const response = await provider.createMessage({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'Say hello.' }],
      maxOutputTokens: 64,
    });
    expect(mock.requests).toHaveLength(1);
    publicValues.push(response);

    const session = await workspace.store.sessions.create({
      title: 'Canary run',
      agent: 'build',
      model: 'anthropic/claude-sonnet-4-6',
    });
    await workspace.store.sessions.append(session.id, [
      { message: { role: 'user', content: 'Say hello.' } },
      { message: response.message, model: 'claude-sonnet-4-6', usage: response.usage },
    ]);
    await workspace.store.usage.record({
      sessionId: session.id,
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
      agent: 'build',
      usage: response.usage,
      costUsd: 0.001,
    });
    publicValues.push(
      session,
      await workspace.store.sessions.load(session.id),
      await workspace.store.sessions.list(),
      await workspace.store.sessions.exportJsonl(session.id),
      await workspace.store.usage.report('provider'),
      await workspace.agentsMd(),
      await workspace.outputStyles(),
    );

    // Errors a user could trigger: the key pasted into the config, a missing secret, a bad edit.
    const attempts: (() => Promise<unknown>)[] = [
      () => workspace.setConfigValue(['providers', 'anthropic', 'apiKey'], canary),
      () => workspace.setConfigValue(['model'], canary),
      () => workspace.setConfigValue(['gateway', 'host'], `https://user:${canary}@example.com`),
      () =>
        workspace.updateConfig((draft) => ({
          ...draft,
          hooks: { beforeTool: [{ command: `curl -H "x-key: ${canary}"` }] },
        })),
      () => workspace.secrets.set('bad name!', canary),
      async () => {
        await workspace.secrets.delete('anthropic');
        return workspace.providerKey('anthropic');
      },
    ];
    for (const attempt of attempts) {
      const outcome = await attempt().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      expect('error' in outcome, 'each attempt must fail').toBe(true);
      if ('error' in outcome) errors.push(outcome.error);
    }
    await workspace.secrets.set('anthropic', canary);
    publicValues.push(workspace.config);

    const databaseFiles = (await readdir(join(dir, '.boxagnts'))).filter((name) => name.includes('.db'));
    expect(databaseFiles).toContain('workspace.db');
    const whileOpen = await Promise.all(
      databaseFiles.map((name) => readFile(join(dir, '.boxagnts', name)).catch(() => Buffer.alloc(0))),
    );
    await workspace.close();

    const needle = Buffer.from(canary);
    const leaks: string[] = [];
    for (const [index, content] of whileOpen.entries()) {
      if (content.includes(needle)) leaks.push(`database file (open) ${databaseFiles[index]}`);
    }
    const files = await filesUnder(dir);
    for (const file of files) {
      if (file === workspace.paths.secrets) continue;
      if ((await readFile(file)).includes(needle)) leaks.push(`file ${file}`);
    }
    for (const line of logs) if (line.includes(canary)) leaks.push(`log line ${line}`);
    for (const error of errors) {
      for (const text of [...renderings(error), (error as Error).message ?? '']) {
        if (text.includes(canary)) leaks.push(`error ${(error as Error).message}`);
      }
    }
    for (const value of publicValues) {
      for (const text of renderings(value)) if (text.includes(canary)) leaks.push(`value ${text.slice(0, 200)}`);
    }
    expect(leaks).toEqual([]);

    // Positive controls: the search finds the key where it belongs, so a leak would be caught.
    expect((await readFile(workspace.paths.secrets)).includes(needle)).toBe(true);
    expect((await stat(workspace.paths.secrets)).mode & 0o777).toBe(0o600);
    expect(logs.some((line) => line.includes('provider key resolved') && line.includes(`…${canary.slice(-4)}`))).toBe(
      true,
    );
    expect(errors).toHaveLength(attempts.length);
    expect(renderings({ leaked: key.reveal() }).some((text) => text.includes(canary))).toBe(true);
  });
});
