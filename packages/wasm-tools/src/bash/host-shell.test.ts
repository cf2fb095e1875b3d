import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type ToolContext } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BashToolConfigError, createBashTool } from './bash-tool.js';
import { hostShellEnvironment } from './host-shell.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'bash-host-')));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  return { root, signal: new AbortController().signal, sessionId: 's', turnId: 't', toolCallId: 'c', ...overrides };
}

/** Gone, or a zombie waiting for a parent that does not reap (PID 1 in some containers). */
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const status = `/proc/${pid}/stat`;
  return existsSync(status) && readFileSync(status, 'utf8').split(') ')[1]?.startsWith('Z') === true;
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    if (processGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return processGone(pid);
}

async function backgroundPid(): Promise<number> {
  const pid = Number((await readFile(join(root, 'bg.pid'), 'utf8')).trim());
  expect(pid).toBeGreaterThan(1);
  return pid;
}

const host = createBashTool({ mode: 'host' });

describe('host bash', () => {
  it('runs the real bash in the root with stdout, stderr and the exit code', async () => {
    const result = await host.execute({ command: 'pwd; echo made > f.txt; echo oops >&2; exit 4' }, context());
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toBe(`stdout:\n${root}\n\nstderr:\noops\n\nexit code: 4`);
    expect(await readFile(join(root, 'f.txt'), 'utf8')).toBe('made\n');
    expect(result.metadata).toMatchObject({ mode: 'host', exitCode: 4, outcome: 'exited' });
  });

  it('gives the command a scrubbed environment without host secrets', async () => {
    process.env.BOXAGNTS_PLANTED_SECRET = 'sk-planted-7d1e';
    try {
      const tool = createBashTool({ mode: 'host', env: { EXTRA_VALUE: 'given' } });
      const text = resultText(await tool.execute({ command: 'env' }, context()));
      expect(text).not.toContain('sk-planted-7d1e');
      expect(text).not.toContain('BOXAGNTS_PLANTED_SECRET');
      expect(text).toContain('EXTRA_VALUE=given');
      expect(text).toContain(`PATH=${process.env.PATH}`);
      const names = text
        .split('\n')
        .map((line) => line.split('=')[0])
        .filter((name) => name !== undefined && /^[A-Z_]+$/.test(name));
      for (const name of names)
        expect(['PATH', 'HOME', 'LANG', 'TERM', 'EXTRA_VALUE', 'PWD', 'SHLVL', '_']).toContain(name);
    } finally {
      delete process.env.BOXAGNTS_PLANTED_SECRET;
    }
  });

  it('builds the environment from PATH, HOME, LANG and TERM only', () => {
    const environment = hostShellEnvironment({ A: 'b' });
    expect(Object.keys(environment).sort()).toEqual(['A', 'HOME', 'LANG', 'PATH', 'TERM']);
  });

  it('kills the whole process group at the timeout, background grandchildren included', async () => {
    const result = await host.execute({ command: 'sleep 30 & echo $! > bg.pid; sleep 30', timeout: 500 }, context());
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'timed-out', exitCode: null });
    expect(await waitUntilGone(await backgroundPid())).toBe(true);
  });

  it('kills the process group when the call is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await host.execute(
      { command: 'sleep 30 & echo $! > bg.pid; sleep 30' },
      context({ signal: controller.signal }),
    );
    expect(result.metadata).toMatchObject({ outcome: 'aborted' });
    expect(await waitUntilGone(await backgroundPid())).toBe(true);
  });

  it('leaves no background process behind after a normal exit', async () => {
    const result = await host.execute({ command: 'sleep 30 & echo $! > bg.pid; echo started' }, context());
    expect(resultText(result)).toContain('started');
    expect(await waitUntilGone(await backgroundPid())).toBe(true);
  });

  it('caps output, keeping head and tail', async () => {
    const tool = createBashTool({ mode: 'host', maxOutputBytes: 1000 });
    const result = await tool.execute(
      { command: 'echo START; head -c 200000 /dev/zero | tr "\\0" a; echo; echo END' },
      context(),
    );
    const text = resultText(result);
    expect(text.startsWith('stdout:\nSTART\naaa')).toBe(true);
    expect(text).toContain('bytes of output omitted');
    expect(text).toContain('aaa\nEND');
    expect(text.length).toBeLessThan(1200);
  });

  it('refuses simulated-only options and bad numbers at configuration time', () => {
    expect(() => createBashTool({ mode: 'host', protectedPaths: ['.git'] })).toThrow(BashToolConfigError);
    expect(() => createBashTool({ mode: 'host', allowNetwork: true })).toThrow(/only to the simulated shell/);
    expect(() => createBashTool({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  });
});
