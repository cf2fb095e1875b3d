import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockScript, type MockServer, startMockServer } from '@boxagnts/testkit';
import { openWorkspace, type Workspace } from '@boxagnts/workspace';

/** The key the tests give the mock provider; every test that looks for leaks searches for it. */
export const CANARY_KEY = 'sk-canary-9f8e7d6c5b4a39281706';

/** A temporary workspace whose `anthropic` provider is the testkit mock, with its key in the secrets file. */
export interface TestWorkspace {
  dir: string;
  mock: MockServer;
  workspace: Workspace;
  close(): Promise<void>;
}

/** Writes a workspace config pointing `anthropic` at a fresh mock server, opens it and stores the canary key. */
export async function createTestWorkspace(
  script: MockScript,
  config: Record<string, unknown> = {},
): Promise<TestWorkspace> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-gateway-'));
  const mock = await startMockServer({ script });
  await writeFile(
    join(dir, 'boxagnts.json'),
    JSON.stringify({
      model: 'anthropic/claude-sonnet-4-6',
      providers: { anthropic: { baseUrl: mock.url, apiKey: { secret: 'anthropic' } } },
      ...config,
    }),
  );
  const workspace = await openWorkspace(dir);
  await workspace.secrets.set('anthropic', CANARY_KEY);
  return {
    dir,
    mock,
    workspace,
    async close() {
      await workspace.close();
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
