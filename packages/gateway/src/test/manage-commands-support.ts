import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspace } from '@boxagnts/workspace';
import { expect } from 'vitest';
import { type BinResult, cleanupsAfterEach, runBin } from './run-bin.js';

/**
 * What the `boxagnts sessions|providers|models|config` tests share (three files, so the two vitest
 * workers split their bin starts instead of one file being the run's tail).
 */

/** Each case starts several real bins (about a second each under tsx): a generous per-test limit. */
export const MANY_PROCESSES = 180_000;

/** A second canary, given through the environment only. */
export const ENV_CANARY = 'sk-envcanary-0a1b2c3d4e5f60718293';

/** A failure as users should see it: exit 1, one clear line on stderr, no stack trace. */
export function expectCleanFailure(result: BinResult, message: string | RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain('node:internal');
}

/** Call at the top of a test file: the bin, and fresh workspaces removed after each test. */
export function manageCommandsSupport() {
  const cleanups = cleanupsAfterEach();
  const cli = runBin;
  async function workspace(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'boxagnts-cli-manage-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const init = await cli(['init', dir]);
    expect(init.code).toBe(0);
    return dir;
  }
  async function workspaceWithSessions(): Promise<string> {
    const dir = await workspace();
    const opened = await openWorkspace(dir);
    try {
      await opened.store.sessions.create({ id: 'zoo', title: 'Zoo trip' });
      await opened.store.sessions.append('zoo', [
        { message: { role: 'user', content: 'Rename zebra.txt to okapi.txt' } },
        { message: { role: 'assistant', content: [{ type: 'text', text: 'Renamed it.' }] } },
        { message: { role: 'user', content: 'Now list the animals.' } },
      ]);
      await opened.store.sessions.create({ id: 'empty', title: 'Nothing yet' });
    } finally {
      await opened.close();
    }
    return dir;
  }
  return { cleanups, cli, workspace, workspaceWithSessions };
}
