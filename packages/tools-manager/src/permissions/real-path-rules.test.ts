import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type ToolContext } from '@boxagnts/tools';
import { createSandboxToolSource } from '@boxagnts/wasm-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSet } from '../tool-set/create-tool-set.js';
import { createPermissionEngine } from './permission-engine.js';

let base: string;
let root: string;
let outside: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tm-real-rules-')));
  root = join(base, 'root');
  outside = join(base, 'etc');
  await mkdir(join(root, 'protected_area'), { recursive: true });
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'protected_area', 'prod.env'), 'KEY=prod-secret\n');
  await writeFile(join(outside, 'passwd'), 'root:x:0:0\n');
  await writeFile(join(root, 'src', 'a.ts'), 'export {};\n');
  await symlink(join(root, 'protected_area'), join(root, 'docs_link'));
  await symlink('../protected_area', join(root, 'src', 'relative_link'));
  await symlink(outside, join(root, 'src', 'link'));
  await symlink(join(outside, 'new-file'), join(root, 'src', 'dangling'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const read = { name: 'read', permission: 'read-only' } as const;
const edit = { name: 'edit', permission: 'write' } as const;
const bash = { name: 'bash', permission: 'execute' } as const;

describe('rules match the real path, not the spelling', () => {
  it('a deny on a folder also refuses every link into it, for every tool kind', () => {
    const engine = createPermissionEngine({
      rules: { deny: ['read(protected_area/**)', 'edit(protected_area/**)', 'mcp__fs__*(protected_area/**)'] },
    });
    for (const file_path of [
      'docs_link/prod.env',
      `${root}/docs_link/prod.env`,
      'src/relative_link/prod.env',
      'src/relative_link/../protected_area/prod.env',
      'DOCS_LINK/prod.env'.toLowerCase(),
    ]) {
      expect(engine.evaluate(read, { file_path }, { root }).behavior, file_path).toBe('deny');
      expect(engine.evaluate(edit, { file_path }, { root }).behavior, file_path).toBe('deny');
    }
    const mcp = { name: 'mcp__fs__read_text_file', permission: 'read-only' } as const;
    expect(engine.evaluate(mcp, { path: `${root}/docs_link/prod.env` }, { root }).behavior).toBe('deny');
    expect(engine.evaluate(read, { file_path: 'src/a.ts' }, { root }).behavior).toBe('allow');
  });

  it('a link out of the root is not inside `src/**` for allow rules', () => {
    const engine = createPermissionEngine({ rules: { allow: ['edit(src/**)'] } });
    expect(engine.evaluate(edit, { file_path: 'src/a.ts' }, { root }).behavior).toBe('allow');
    expect(engine.evaluate(edit, { file_path: 'src/link/passwd' }, { root }).behavior).toBe('ask');
    expect(engine.evaluate(edit, { file_path: 'src/dangling' }, { root }).behavior).toBe('ask');
    expect(engine.evaluate(edit, { file_path: 'src/link/../../root/src/a.ts' }, { root }).behavior).toBe('ask');
  });

  it('a deny over an outside path recognises it through a link', () => {
    const engine = createPermissionEngine({ rules: { deny: ['read(**/etc/passwd)'] } });
    expect(engine.evaluate(read, { file_path: 'src/link/passwd' }, { root }).behavior).toBe('deny');
  });

  it('accept-edits refuses writes that leave the root through a link', () => {
    const engine = createPermissionEngine({ mode: 'accept-edits' });
    expect(engine.evaluate(edit, { file_path: 'src/a.ts' }, { root }).behavior).toBe('allow');
    expect(engine.evaluate(edit, { file_path: 'src/link/passwd' }, { root }).behavior).toBe('ask');
    expect(engine.evaluate(edit, { file_path: 'src/dangling' }, { root }).behavior).toBe('ask');
    expect(engine.evaluate(edit, { file_path: 'src/link/new.txt' }, { root }).behavior).toBe('ask');
  });

  it('an allow rule for the link name does not admit the real folder it points at', () => {
    const engine = createPermissionEngine({ rules: { allow: ['edit(docs_link/**)', 'edit(src/**)', 'bash(ls)'] } });
    expect(engine.evaluate(edit, { file_path: 'docs_link/prod.env' }, { root }).behavior).toBe('ask');
    expect(engine.evaluate(edit, { file_path: 'src/a.ts' }, { root }).behavior).toBe('allow');
    expect(engine.evaluate(bash, { command: 'ls' }, { root }).behavior).toBe('allow');
  });

  it('a root that is itself reached through a link still places paths inside it', async () => {
    const alias = join(base, 'root-alias');
    await symlink(root, alias);
    const engine = createPermissionEngine({ rules: { allow: ['edit(src/**)'], deny: ['read(protected_area/**)'] } });
    expect(engine.evaluate(edit, { file_path: 'src/a.ts' }, { root: alias }).behavior).toBe('allow');
    expect(engine.evaluate(read, { file_path: 'docs_link/prod.env' }, { root: alias }).behavior).toBe('deny');
  });
});

describe('through the real sandboxed file tools', () => {
  const context = (): ToolContext => ({
    root,
    signal: new AbortController().signal,
    sessionId: 's',
    turnId: 't',
    toolCallId: 'c',
  });

  it('read, edit and write of `docs_link/prod.env` are refused by `protected_area/**` rules', async () => {
    const toolSet = await createToolSet({
      sources: [createSandboxToolSource({ webFetch: { allowedHosts: [] } })],
      permissions: {
        mode: 'bypass',
        rules: { deny: ['read(protected_area/**)', 'edit(protected_area/**)', 'write(protected_area/**)'] },
      },
    });
    try {
      const direct = await toolSet.execute('read', { file_path: 'protected_area/prod.env' }, context());
      expect(direct.isError).toBe(true);
      const viaLink = await toolSet.execute('read', { file_path: 'docs_link/prod.env' }, context());
      expect(viaLink.isError).toBe(true);
      expect(resultText(viaLink)).not.toContain('prod-secret');
      expect(resultText(viaLink)).toContain('protected_area/**');
      const edited = await toolSet.execute(
        'edit',
        { file_path: 'docs_link/prod.env', old_string: 'prod-secret', new_string: 'owned' },
        context(),
      );
      expect(edited.isError).toBe(true);
      const written = await toolSet.execute('write', { file_path: 'docs_link/prod.env', content: 'owned' }, context());
      expect(written.isError).toBe(true);
      expect(await readFile(join(root, 'protected_area', 'prod.env'), 'utf8')).toBe('KEY=prod-secret\n');
      // A file the rules do not name still reads.
      expect(resultText(await toolSet.execute('read', { file_path: 'src/a.ts' }, context()))).toContain('export');
    } finally {
      await toolSet.close();
    }
  });
});
