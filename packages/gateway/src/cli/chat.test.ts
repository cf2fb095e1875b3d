import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { openWorkspace } from '@boxagnts/workspace';
import { afterEach, describe, expect, it } from 'vitest';
import { CANARY_KEY } from '../test/test-workspace.js';

// The chat is tested in a real terminal: a tmux pane, driven with send-keys and read with capture-pane.
const tmuxMissing = spawnSync('tmux', ['-V']).status !== 0;
const here = dirname(fileURLToPath(import.meta.url));
const socket = `boxagnts-chat-test-${process.pid}`;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-J', '-S', '-200', '-t', 'chat');

/** Waits until the pane shows `text` `count` times (polling the real terminal, bounded by the test timeout). */
async function waitFor(text: string, count = 1): Promise<string> {
  for (;;) {
    const shown = screen();
    if (shown.split(text).length - 1 >= count) return shown;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
function type(line: string): void {
  tmux('send-keys', '-t', 'chat', '-l', line);
  tmux('send-keys', '-t', 'chat', 'Enter');
}

async function workspaceWithMock(script: object): Promise<{ dir: string; mock: MockServer }> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-chat-'));
  const mock = await startMockServer({ script: script as never });
  cleanups.push(async () => {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  });
  await writeFile(
    join(dir, 'boxagnts.json'),
    JSON.stringify({
      model: 'anthropic/claude-sonnet-4-6',
      providers: { anthropic: { baseUrl: mock.url, apiKey: { secret: 'anthropic' } } },
    }),
  );
  const workspace = await openWorkspace(dir);
  await workspace.secrets.set('anthropic', CANARY_KEY);
  await writeFile(join(workspace.paths.root, 'notes.md'), 'hello from the notes\n');
  await workspace.close();
  return { dir, mock };
}

describe.skipIf(tmuxMissing)('boxagnts chat in a real terminal (tmux; skipped where tmux is not installed)', () => {
  it('streams answers with tool cards, stores !command and #note blocks, and runs every slash command', async () => {
    const { dir, mock } = await workspaceWithMock({
      steps: [
        {
          content: [
            { type: 'text', text: 'Reading.' },
            { type: 'tool_call', name: 'read', input: { file_path: 'notes.md' } },
          ],
          usage: { input: 1000, output: 20 },
        },
        { text: 'The notes say hello.', usage: { input: 1200, output: 10 } },
        { text: 'You ran an echo.', usage: { input: 1300, output: 10 } },
        { text: 'SUMMARY: the user read notes and ran an echo.', usage: { input: 900, output: 30 } },
        { text: 'Planning only.', usage: { input: 100, output: 5 } },
      ],
    });
    const command = [
      process.execPath,
      '--conditions=@boxagnts/source',
      '--import',
      'tsx',
      join(here, 'main.ts'),
      'chat',
      '--dir',
      dir,
      '--session',
      'tty-1',
    ]
      .map((part) => `'${part}'`)
      .join(' ');
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'chat', '-x', '160', '-y', '60', '-c', join(here, '..', '..'));
    tmux('set-option', '-t', 'chat', 'remain-on-exit', 'on');
    tmux('respawn-pane', '-k', '-t', 'chat', command);
    await waitFor('session tty-1');

    type('What do my notes say?');
    let shown = await waitFor('The notes say hello.');
    expect(shown).toContain('┌ tool read {"file_path":"notes.md"}');
    expect(shown).toMatch(/└ done: .*hello from the notes/);

    type('!echo LOCAL-OUT-42 && echo oops >&2');
    await waitFor('oops');
    type('#deadline: friday');
    await waitFor('remembered deadline: friday');
    type('What did I run?');
    await waitFor('You ran an echo.');
    const third = mock.requests[2]?.rawBody ?? '';
    expect(third).toContain('The user ran a local command: echo LOCAL-OUT-42');
    expect(third).toContain('LOCAL-OUT-42');
    expect(third).toContain('The user asked you to remember: deadline: friday');

    type('/cost');
    shown = await waitFor('cost: $');
    expect(shown).toMatch(/cost: \$\d+\.\d{4} over 3 calls \(3500 input, 40 output tokens\)/);

    type('/compact');
    shown = await waitFor('compacted');
    expect(shown).toMatch(/compacted \d+ messages to \d+/);
    expect(mock.requests).toHaveLength(4);

    type('/fork');
    shown = await waitFor('forked tty-1 into');
    const forkedId = /forked tty-1 into (\S+);/.exec(shown)?.[1];
    expect(forkedId).toBeDefined();

    type('/agent plan');
    await waitFor('agent plan on anthropic/claude-sonnet-4-6');
    type('/agent no-such-agent');
    await waitFor('cannot switch:');
    type('/model anthropic/claude-haiku-4-5');
    await waitFor('agent plan on anthropic/claude-haiku-4-5');
    type('Plan it.');
    await waitFor('Planning only.');
    expect((mock.requests[4]?.body as { model?: string } | undefined)?.model).toBe('claude-haiku-4-5');
    type('/nope');
    await waitFor('unknown command /nope');
    type('/exit');
    await waitFor('bye');

    const workspace = await openWorkspace(dir);
    try {
      const entries = await workspace.store.sessions.load('tty-1');
      const blocks = entries.flatMap((entry) =>
        Array.isArray(entry.message.content) ? (entry.message.content as { type: string }[]) : [],
      );
      const local = blocks.find((block) => block.type === 'user_local_command_output') as
        | { command: string; output: string }
        | undefined;
      expect(local?.command).toBe('echo LOCAL-OUT-42 && echo oops >&2');
      expect(local?.output).toContain('LOCAL-OUT-42');
      expect(local?.output).toContain('oops');
      expect(blocks).toContainEqual({ type: 'user_memory_input', key: 'deadline', value: 'friday' });
      expect(entries.some((entry) => entry.compaction !== undefined)).toBe(true);
      const byPurpose = await workspace.store.usage.report('purpose');
      expect(byPurpose.find((row) => row.key === 'compaction')?.calls).toBe(1);
      expect((await workspace.store.sessions.get(forkedId!))?.kind).toBe('fork');
      const lastOf = async (id: string) => JSON.stringify((await workspace.store.sessions.load(id)).at(-1)?.message);
      expect(await lastOf(forkedId!)).toContain('Planning only.');
      expect(await lastOf('tty-1')).not.toContain('Planning only.');
    } finally {
      await workspace.close();
    }
  }, 120_000);
});
