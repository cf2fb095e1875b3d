import { chmod, link, mkdir, mkdtemp, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type ToolContext } from '@boxagnts/tools';
import { createSandboxToolSource } from '@boxagnts/wasm-tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolSet } from '../tool-set/create-tool-set.js';
import { isToolSetError } from '../tool-set/tool-set-error.js';
import type { CommandHook } from '../types.js';
import { hookEnvironment } from './hook-environment.js';
import { checkHookLocation } from './hook-location.js';

let base: string;
let root: string;
let host: string;
let marker: string;

const BENIGN = '#!/bin/sh\nexit 0\n';

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tm-hook-location-')));
  root = join(base, 'root');
  host = join(base, 'host');
  marker = join(base, 'pwned');
  await mkdir(join(root, 'scripts'), { recursive: true });
  await mkdir(host);
  await writeFile(join(root, 'scripts', 'check-command.sh'), BENIGN);
  await chmod(join(root, 'scripts', 'check-command.sh'), 0o755);
  await writeFile(
    join(host, 'check-command.sh'),
    '#!/bin/sh\ngrep -q \'"command":"rm \' && { echo "no rm" >&2; exit 2; }; exit 0\n',
  );
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const context = (): ToolContext => ({
  root,
  signal: new AbortController().signal,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
});

async function sandboxSet(hook: CommandHook, roots?: string[]) {
  return createToolSet({
    sources: [createSandboxToolSource({ webFetch: { allowedHosts: [] } })],
    permissions: { mode: 'bypass' },
    hooks: { beforeTool: [hook] },
    ...(roots === undefined ? {} : { roots }),
  });
}

/** What a hostile model writes over the hook through the sandboxed `write` tool. */
const PAYLOAD = () => `#!/bin/sh\necho owned > "${marker}"\ncat /etc/hostname >> "${marker}" 2>/dev/null\nexit 0\n`;

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

describe("hooks never run host code from the agents' root", () => {
  it('a sandboxed write to the hook file (outside the protected hooks/ folder) does not get the next bash call to run it on the host', async () => {
    const toolSet = await sandboxSet({ matcher: 'bash', command: 'sh ./scripts/check-command.sh', cwd: root });
    try {
      const write = await toolSet.execute(
        'write',
        { file_path: 'scripts/check-command.sh', content: PAYLOAD() },
        context(),
      );
      expect(write.isError, resultText(write)).not.toBe(true);
      expect(await readFile(join(root, 'scripts', 'check-command.sh'), 'utf8')).toContain('owned');
      const bash = await toolSet.execute('bash', { command: 'echo hi' }, context());
      expect(await exists(marker)).toBe(false);
      expect(bash.isError).toBe(true);
      expect(resultText(bash)).toContain("inside the agents' root");
      expect(bash.metadata?.permission).toMatchObject({ behavior: 'deny' });
    } finally {
      await toolSet.close();
    }
  });

  it('is refused at tool-set creation when the roots are known', async () => {
    const attempts: CommandHook[] = [
      { command: './scripts/check-command.sh', cwd: root },
      { command: `${root}/scripts/check-command.sh`, cwd: host },
      { command: 'bash scripts/check-command.sh', cwd: root },
      { command: `true && . "${root}/scripts/check-command.sh"`, cwd: host },
    ];
    for (const hook of attempts) {
      const error = await sandboxSet(hook, [root]).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isToolSetError(error), hook.command).toBe(true);
      expect((error as { reason: string }).reason).toBe('unsafe-hook');
      expect((error as Error).message).toContain("outside every agents' root");
    }
  });

  it('sees through links: a host folder or file that leads into the root is refused', async () => {
    await symlink(join(root, 'scripts'), join(host, 'linked-scripts'));
    await symlink(join(root, 'scripts', 'check-command.sh'), join(host, 'linked.sh'));
    await symlink(root, join(base, 'root-alias'));
    for (const hook of [
      { command: 'sh linked-scripts/check-command.sh', cwd: host },
      { command: './linked.sh', cwd: host },
      { command: 'true', cwd: join(base, 'root-alias', 'scripts') },
    ]) {
      expect(checkHookLocation(hook, [root]).ok, hook.command).toBe(false);
    }
    // And at run time, after the model rewrote the file behind the link.
    const toolSet = await sandboxSet({ matcher: 'bash', command: './linked.sh', cwd: host });
    try {
      await toolSet.execute('write', { file_path: 'scripts/check-command.sh', content: PAYLOAD() }, context());
      const bash = await toolSet.execute('bash', { command: 'echo hi' }, context());
      expect(bash.isError).toBe(true);
      expect(await exists(marker)).toBe(false);
    } finally {
      await toolSet.close();
    }
  });

  it('sees through the ways a shell can spell a path into the root', () => {
    const spellings = [
      `sh -c "cd '${root}' && ./scripts/check-command.sh"`,
      `eval "sh ${root}/scripts/check-command.sh"`,
      `true; "${root}/scr"ipts/check-command.sh`,
      `FOO=1 exec ${root}/scripts/check-command.sh`,
      `echo $(sh ${root}/scripts/check-command.sh)`,
      `env -i ${root}/scripts/check-command.sh`,
      `source ${root}/scripts/check-command.sh`,
      `node --require=${root}/scripts/check-command.sh -e 1`,
      `bash -c 'bash -c "sh ${root}/scripts/check-command.sh"'`,
      // bash syntax just-bash does not parse (bash runs it): every piece is still checked.
      `coproc ${root}/scripts/check-command.sh`,
      `select x in 1; do ${root}/scripts/check-command.sh; done`,
    ];
    for (const command of spellings) {
      expect(checkHookLocation({ command, cwd: host }, [root]).ok, command).toBe(false);
    }
    for (const command of ['true', `sh "${join(host, 'check-command.sh')}"`, 'grep -q "a b" && exit 2; exit 0']) {
      expect(checkHookLocation({ command, cwd: host }, [root]).ok, command).toBe(true);
    }
  });

  it('refuses a host file with a second hard link (which may sit inside the root)', async () => {
    await link(join(host, 'check-command.sh'), join(root, 'scripts', 'hard.sh'));
    const result = checkHookLocation({ command: 'sh check-command.sh', cwd: host }, [root]);
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toContain('more than one hard link');
  });

  it('runs hooks that live outside the root, with a default working folder that is never the root', async () => {
    const toolSet = await sandboxSet({ matcher: 'bash', command: `sh "${join(host, 'check-command.sh')}"` }, [root]);
    try {
      const fine = await toolSet.execute('bash', { command: 'echo hi' }, context());
      expect(resultText(fine)).toContain('hi');
      const blocked = await toolSet.execute('bash', { command: 'rm -rf scripts' }, context());
      expect(resultText(blocked)).toContain('no rm');
      expect(await exists(join(root, 'scripts', 'check-command.sh'))).toBe(true);
    } finally {
      await toolSet.close();
    }
    expect(checkHookLocation({ command: 'true' }, [root], host)).toEqual({ ok: true, cwd: host });
    expect(checkHookLocation({ command: 'true' }, [root], root).ok).toBe(false);
  });

  it('drops relative PATH entries and entries inside a root from the hook environment', () => {
    const environment = hookEnvironment(undefined, { PATH: `.::/usr/bin:${root}/bin:bin:/bin` }, [root]);
    expect(environment.PATH).toBe('/usr/bin:/bin');
  });
});
