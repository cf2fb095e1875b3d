import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '@boxagnts/api';
import { type ToolContext, type ToolResult, textResult } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AfterToolHook, BeforeToolHook, HookFailure } from '../types.js';
import { runAfterToolHooks, runBeforeToolHooks } from './run-hooks.js';

let root: string;
/** The host's own folder for hook files and outputs: never inside the agents' root. */
let host: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hooks-'));
  host = await mkdtemp(join(tmpdir(), 'hooks-host-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(host, { recursive: true, force: true });
});

function context(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    root,
    signal: new AbortController().signal,
    sessionId: 'session-1',
    turnId: 'turn-1',
    toolCallId: 'call-1',
    ...overrides,
  };
}

const bash = { name: 'bash', permission: 'execute' as const };
const anyInput = () => ({ ok: true as const });

function beforeEvent(input: JsonObject) {
  return { tool: bash, input, context: context() };
}

describe('runBeforeToolHooks with function hooks', () => {
  it('runs matching hooks in order, each seeing the previous rewrite', async () => {
    const seen: string[] = [];
    const hooks: BeforeToolHook[] = [
      {
        run: ({ input }) => {
          seen.push(String(input.command));
          return { input: { command: `${input.command} --one` } };
        },
      },
      { matcher: 'read', run: () => ({ block: true, reason: 'never for bash' }) },
      {
        matcher: 'ba*',
        run: ({ input }) => {
          seen.push(String(input.command));
          return { input: { command: `${input.command} --two` } };
        },
      },
    ];
    const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'ls' }), anyInput);
    expect(result).toEqual({
      kind: 'continue',
      input: { command: 'ls --one --two' },
      rewrittenBy: ['beforeTool[0]', 'beforeTool[2]'],
    });
    expect(seen).toEqual(['ls', 'ls --one']);
  });

  it('stops at a block and runs no later hook', async () => {
    let laterRan = false;
    const hooks: BeforeToolHook[] = [
      { run: () => ({ block: true, reason: 'no shell today' }) },
      {
        run: () => {
          laterRan = true;
        },
      },
    ];
    const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'ls' }), anyInput);
    expect(result).toEqual({ kind: 'block', reason: 'no shell today', hook: 'beforeTool[0]' });
    expect(laterRan).toBe(false);
  });

  it('refuses a rewrite the input check rejects, naming the hook', async () => {
    const hooks: BeforeToolHook[] = [{ run: () => ({ input: { command: 42 } }) }];
    const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'ls' }), (input) =>
      typeof input.command === 'string' ? { ok: true } : { ok: false, message: 'command must be a string' },
    );
    expect(result).toEqual({ kind: 'invalid-input', message: 'command must be a string', hook: 'beforeTool[0]' });
  });

  it('reports a throwing hook, a nonsense answer and a timeout, and goes on', async () => {
    const failures: HookFailure[] = [];
    let aborted = false;
    const hooks: BeforeToolHook[] = [
      {
        run: () => {
          throw new Error('boom');
        },
      },
      { run: () => ({ block: 'yes' }) as never },
      {
        timeoutMs: 50,
        run: (_event, signal) =>
          new Promise(() => {
            signal.addEventListener('abort', () => {
              aborted = true;
            });
          }),
      },
      { run: () => ({ input: { command: 'pwd' } }) },
    ];
    const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'ls' }), anyInput, {
      onFailure: (failure) => failures.push(failure),
    });
    expect(result).toEqual({ kind: 'continue', input: { command: 'pwd' }, rewrittenBy: ['beforeTool[3]'] });
    expect(failures.map((failure) => [failure.hook, failure.phase, failure.tool])).toEqual([
      ['beforeTool[0]', 'before', 'bash'],
      ['beforeTool[1]', 'before', 'bash'],
      ['beforeTool[2]', 'before', 'bash'],
    ]);
    expect(failures[0]?.message).toBe('threw: boom');
    expect(failures[1]?.message).toMatch(/not a before-tool outcome/);
    expect(failures[2]?.message).toBe('timed out after 50 ms');
    expect(aborted).toBe(true);
  });
});

describe('runBeforeToolHooks with command hooks', () => {
  it('sends the event as JSON on stdin and uses the JSON it prints', async () => {
    const payloadFile = join(host, 'payload.json');
    const hooks: BeforeToolHook[] = [{ command: `cat > "${payloadFile}"; printf '{"input":{"command":"ls -la"}}'` }];
    const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'ls' }), anyInput);
    expect(result).toEqual({ kind: 'continue', input: { command: 'ls -la' }, rewrittenBy: [expect.any(String)] });
    expect(JSON.parse(await readFile(payloadFile, 'utf8'))).toEqual({
      phase: 'before',
      tool_name: 'bash',
      tool_permission: 'execute',
      tool_input: { command: 'ls' },
      root,
      session_id: 'session-1',
      turn_id: 'turn-1',
      tool_call_id: 'call-1',
    });
  });

  it('blocks on exit 2 with stderr as the reason', async () => {
    const hooks: BeforeToolHook[] = [{ command: 'echo "rm is not allowed here" >&2; exit 2' }];
    const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'rm -rf /' }), anyInput);
    expect(result).toMatchObject({ kind: 'block', reason: 'rm is not allowed here' });
  });

  it('reports garbage on stdout and a bad exit status, and the call goes on', async () => {
    const failures: HookFailure[] = [];
    const hooks: BeforeToolHook[] = [
      { command: 'echo "this is not json {"' },
      { command: 'echo oops >&2; exit 7' },
      { command: `printf '{"block":false}'` },
    ];
    const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'ls' }), anyInput, {
      onFailure: (failure) => failures.push(failure),
    });
    expect(result).toEqual({ kind: 'continue', input: { command: 'ls' }, rewrittenBy: [] });
    expect(failures.map((failure) => failure.message)).toEqual([
      'printed output that is not JSON: this is not json {',
      'exited with status 7: oops',
      expect.stringMatching(/not a before-tool outcome/),
    ]);
    expect(failures[0]?.hook).toBe('beforeTool[0] (echo "this is not json {")');
  });

  it('reports a timeout and kills the hook with the children it started', async () => {
    const failures: HookFailure[] = [];
    const pidFile = join(host, 'child.pid');
    const hooks: BeforeToolHook[] = [{ command: `sleep 30 & echo $! > "${pidFile}"; wait`, timeoutMs: 300 }];
    const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'ls' }), anyInput, {
      onFailure: (failure) => failures.push(failure),
    });
    expect(result.kind).toBe('continue');
    expect(failures[0]?.message).toBe('timed out after 300 ms; its process group was killed');
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    let alive = true;
    for (let attempt = 0; attempt < 100 && alive; attempt += 1) {
      const stat = await readFile(`/proc/${child}/stat`, 'utf8').catch(() => '');
      alive = stat !== '' && !/\) [ZX] /.test(stat);
      if (alive) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(alive).toBe(false);
  });

  it('runs in the hook cwd with the hook env and without host secrets', async () => {
    process.env.BOXAGNTS_TEST_SECRET = 'do-not-leak';
    try {
      const hooks: BeforeToolHook[] = [
        {
          command: `printf '{"input":{"command":"%s %s %s"}}' "$(pwd)" "$FLAVOUR" "\${BOXAGNTS_TEST_SECRET:-absent}"`,
          cwd: '/',
          env: { FLAVOUR: 'mint' },
        },
      ];
      const result = await runBeforeToolHooks(hooks, beforeEvent({ command: 'ls' }), anyInput);
      expect(result).toMatchObject({ kind: 'continue', input: { command: '/ mint absent' } });
    } finally {
      delete process.env.BOXAGNTS_TEST_SECRET;
    }
  });
});

describe('runAfterToolHooks', () => {
  const result: ToolResult = textResult('3 files');

  function afterEvent() {
    return { tool: bash, input: { command: 'ls' }, result, context: context(), durationMs: 12 };
  }

  it('replaces and annotates in order', async () => {
    const hooks: AfterToolHook[] = [
      { run: ({ result: current }) => ({ result: { ...current, content: [{ type: 'text', text: '4 files' }] } }) },
      { run: () => ({ annotate: 'Note: one file is generated.' }) },
      { command: 'echo "Checked by the audit hook." >&2; exit 2' },
    ];
    const final = await runAfterToolHooks(hooks, afterEvent());
    expect(final.content).toEqual([
      { type: 'text', text: '4 files' },
      { type: 'text', text: 'Note: one file is generated.' },
      { type: 'text', text: 'Checked by the audit hook.' },
    ]);
  });

  it('gives command hooks the result and takes a replacement from stdout', async () => {
    await writeFile(
      join(host, 'hook.sh'),
      `payload=$(cat)\ncase "$payload" in *'"tool_result":{"content":[{"type":"text","text":"3 files"}]}'*'"duration_ms":12'*) printf '{"result":{"content":[{"type":"text","text":"seen"}],"isError":true}}';; esac\n`,
    );
    const final = await runAfterToolHooks([{ command: 'sh hook.sh', cwd: host }], afterEvent());
    expect(final).toEqual({ content: [{ type: 'text', text: 'seen' }], isError: true });
  });

  it('reports a failing after hook and keeps the result', async () => {
    const failures: HookFailure[] = [];
    const final = await runAfterToolHooks([{ command: 'exit 1' }], afterEvent(), {
      onFailure: (failure) => failures.push(failure),
    });
    expect(final).toBe(result);
    expect(failures).toEqual([
      { phase: 'after', hook: 'afterTool[0] (exit 1)', tool: 'bash', message: 'exited with status 1' },
    ]);
  });
});
