import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConfigError } from '../config/config-error.js';
import { openWorkspace } from './open-workspace.js';
import type { Workspace } from './workspace.js';

// Files the host reads as instructions, each replaced by a link out of the workspace, as a
// component with write access (or anyone who can rename in the folder) would.
describe('a workspace reads its instructions without following links out of it', () => {
  let base: string;
  let dir: string;
  let outside: string;
  let workspace: Workspace | undefined;
  const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'boxagnts-planted-links-'));
    dir = join(base, 'ws');
    outside = join(base, 'outside');
    await mkdir(outside);
    warnings.length = 0;
  });
  afterEach(async () => {
    await workspace?.close();
    workspace = undefined;
    await rm(base, { recursive: true, force: true });
  });

  const open = () =>
    openWorkspace(dir, {
      env: {},
      home: join(base, 'home'),
      logger: {
        info: () => undefined,
        warn: (message, fields) => warnings.push({ message, ...(fields === undefined ? {} : { fields }) }),
        error: () => undefined,
      },
    });

  /** Renames a fresh link to `target` over `path` (atomic, like the attack). */
  async function plantLink(target: string, path: string): Promise<void> {
    await symlink(target, `${path}.planted`);
    await rename(`${path}.planted`, path);
  }

  it('refuses a boxagnts.json linked out of the workspace on open, reload and update, keeping the old config', async () => {
    workspace = await open();
    const config = join(dir, 'boxagnts.json');
    await writeFile(join(outside, 'evil.json'), '{ "model": "evil/model" }');
    await plantLink(join(outside, 'evil.json'), config);
    const reload = await workspace.reload().catch((error: unknown) => error);
    expect(isConfigError(reload) && reload.reason).toBe('unsafe-link');
    expect(String((reload as Error).message)).toContain('outside');
    expect(workspace.config.model).not.toBe('evil/model');
    const update = await workspace.setConfigValue(['model'], 'openai/gpt-5').catch((error: unknown) => error);
    expect(isConfigError(update) && update.reason).toBe('unsafe-link');
    expect(await readFile(join(outside, 'evil.json'), 'utf8')).toBe('{ "model": "evil/model" }');
    await workspace.close();
    workspace = undefined;
    const reopened = await open().catch((error: unknown) => error);
    expect(isConfigError(reopened) && reopened.reason).toBe('unsafe-link');
  });

  it('refuses an output style linked out of the workspace', async () => {
    workspace = await open();
    await mkdir(join(dir, 'output-styles'), { recursive: true });
    await writeFile(join(outside, 'style.md'), 'HOST FILE TEXT');
    await plantLink(join(outside, 'style.md'), join(dir, 'output-styles', 'terse.md'));
    const error = await workspace.outputStyles().catch((caught: unknown) => caught);
    expect(isConfigError(error) && error.reason).toBe('unsafe-link');
    expect(String((error as Error).message)).not.toContain('HOST FILE TEXT');
  });

  it('leaves a planted AGENTS.md link out of the prompt and logs a warning', async () => {
    workspace = await open();
    await writeFile(join(outside, 'secret.txt'), 'HOST SECRET');
    await plantLink(join(outside, 'secret.txt'), join(dir, 'root', 'AGENTS.md'));
    await plantLink(join(outside, 'secret.txt'), join(dir, 'AGENTS.md'));
    const composed = await workspace.agentsMd();
    expect(composed.text).not.toContain('HOST SECRET');
    expect(warnings.filter((warning) => warning.message === 'AGENTS.md left out')).toHaveLength(1);
  });
});
