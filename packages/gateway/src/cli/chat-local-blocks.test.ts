import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_LOCAL_OUTPUT_CHARS, memoryBlock, runLocalCommand } from './chat-local-blocks.js';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'boxagnts-local-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('runLocalCommand', () => {
  it('captures stdout and stderr in the given folder', async () => {
    const block = await runLocalCommand('pwd; echo err >&2', folder);
    expect(block.type).toBe('user_local_command_output');
    expect(block.output).toContain(folder);
    expect(block.output).toContain('err');
  });

  it('notes a non-zero status and a missing command instead of failing', async () => {
    expect((await runLocalCommand('exit 7', folder)).output).toBe('[exit status 7]');
    const missing = await runLocalCommand('no-such-command-boxagnts', folder);
    expect(missing.output).toMatch(/not found[\s\S]*\[exit status 127\]/);
  });

  it('cuts a flood of output at the limit and still ends', async () => {
    const block = await runLocalCommand('head -c 5000000 /dev/zero | tr "\\0" x', folder);
    expect(block.output.length).toBeLessThan(MAX_LOCAL_OUTPUT_CHARS + 100);
    expect(block.output.endsWith('[output cut]')).toBe(true);
  });

  it('ends a long command when cancelled, keeping what it printed', async () => {
    const controller = new AbortController();
    const pending = runLocalCommand('echo started; exec sleep 60', folder, controller.signal);
    controller.abort();
    const block = await pending;
    expect(block.output).toContain('[cancelled]');
  });

  it('reports a folder that does not exist', async () => {
    const block = await runLocalCommand('true', join(folder, 'gone'));
    expect(block.output).toContain('could not start');
  });
});

describe('memoryBlock', () => {
  it('keeps key and value, or stores a plain note under "note"', () => {
    expect(memoryBlock('# deadline: friday')).toEqual({ type: 'user_memory_input', key: 'deadline', value: 'friday' });
    expect(memoryBlock('#use pnpm, not npm')).toEqual({
      type: 'user_memory_input',
      key: 'note',
      value: 'use pnpm, not npm',
    });
    expect(memoryBlock('#see: ')).toEqual({ type: 'user_memory_input', key: 'note', value: 'see:' });
    expect(memoryBlock('#   ')).toBeUndefined();
  });
});
