import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnHookCommand } from './spawn-hook-command.js';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hook-spawn-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Alive means running; a zombie waiting to be reaped is dead. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return true;
}

async function processState(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

async function waitUntilDead(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const state = await processState(pid);
    if (!isAlive(pid) || state === undefined || state === 'Z' || state === 'X') return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe('spawnHookCommand', () => {
  it('passes stdin, runs in the cwd with only the given environment', async () => {
    const outcome = await spawnHookCommand({
      command: 'read line; printf "%s|%s|%s|%s" "$line" "$(pwd)" "$GREETING" "[$SECRET]"',
      stdin: 'hello\n',
      cwd: folder,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GREETING: 'hi' },
      timeoutMs: 10_000,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toBe(`hello|${folder}|hi|[]`);
    expect(outcome.timedOut).toBe(false);
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const pidFile = join(folder, 'grandchild.pid');
    const outcome = await spawnHookCommand({
      command: `sleep 30 & echo $! > "${pidFile}"; wait`,
      stdin: '',
      cwd: folder,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 400,
    });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitCode).toBeNull();
    const grandchild = Number((await readFile(pidFile, 'utf8')).trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it('kills what a hook left running in its group when it exits', async () => {
    const pidFile = join(folder, 'background.pid');
    const outcome = await spawnHookCommand({
      command: `sleep 30 >/dev/null 2>&1 & echo $! > "${pidFile}"; echo done`,
      stdin: '',
      cwd: folder,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 10_000,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout.trim()).toBe('done');
    const background = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await waitUntilDead(background)).toBe(true);
  });

  it('caps stdout and says it did', async () => {
    const outcome = await spawnHookCommand({
      command: 'head -c 5000 /dev/zero | tr "\\0" a',
      stdin: '',
      cwd: folder,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 10_000,
      maxOutputBytes: 1000,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.stdout).toHaveLength(1000);
    expect(outcome.stdoutTruncated).toBe(true);
    expect(outcome.stderrTruncated).toBe(false);
  });

  it('stops the command when the signal aborts', async () => {
    const controller = new AbortController();
    const pidFile = join(folder, 'sleeper.pid');
    const running = spawnHookCommand({
      command: `sleep 30 & echo $! > "${pidFile}"; echo started; wait`,
      stdin: '',
      cwd: folder,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 20_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const outcome = await running;
    expect(outcome.aborted).toBe(true);
    expect(outcome.timedOut).toBe(false);
    expect(outcome.exitCode).toBeNull();
    const sleeper = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await waitUntilDead(sleeper)).toBe(true);
  });

  it('reports a cwd that does not exist instead of throwing', async () => {
    const outcome = await spawnHookCommand({
      command: 'true',
      stdin: '',
      cwd: join(folder, 'missing'),
      env: {},
      timeoutMs: 10_000,
    });
    expect(outcome.spawnError).toMatch(/ENOENT/);
  });
});
