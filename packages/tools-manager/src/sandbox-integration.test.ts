import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@boxagnts/tools';
import { createSandboxToolSource } from '@boxagnts/wasm-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeToolSource } from './native-source/native-tool-source.js';
import { createToolSet } from './tool-set/create-tool-set.js';
import type { ToolSet } from './tool-set/tool-set-types.js';

let root: string;
let toolSet: ToolSet;
const context = (): ToolContext => ({
  root,
  signal: new AbortController().signal,
  sessionId: 's',
  turnId: 't',
  toolCallId: 'c',
});
const text = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((block) => block.text ?? '').join('\n');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tm-sandbox-'));
  await writeFile(join(root, 'notes.md'), '# Notes\nport 8000\n');
  toolSet = await createToolSet({
    sources: [nativeToolSource(), createSandboxToolSource({ webFetch: { allowedHosts: [] } })],
    permissions: { rules: { allow: ['edit(*.md)', 'bash(wc:*)', 'js_exec'], deny: ['write(**)'] } },
  });
});
afterAll(async () => {
  await toolSet.close();
  await rm(root, { recursive: true, force: true });
});

describe('the sandboxed built-in tools through a tool set', () => {
  it('every sandboxed tool runs through the guarded pipeline, and the rules decide', async () => {
    const names = toolSet.tools().map((tool) => tool.name);
    for (const name of ['read', 'write', 'edit', 'glob', 'grep', 'bash', 'js_exec', 'web_fetch'])
      expect(names).toContain(name);

    expect(text(await toolSet.execute('read', { file_path: 'notes.md' }, context()))).toContain('port 8000');
    expect(text(await toolSet.execute('glob', { pattern: '*.md' }, context()))).toContain('notes.md');
    expect(text(await toolSet.execute('grep', { pattern: 'port', output_mode: 'content' }, context()))).toContain(
      'port 8000',
    );
    const edit = await toolSet.execute(
      'edit',
      { file_path: 'notes.md', old_string: '8000', new_string: '8080' },
      context(),
    );
    expect(edit.isError).not.toBe(true);
    expect(await readFile(join(root, 'notes.md'), 'utf8')).toContain('port 8080');
    expect(text(await toolSet.execute('bash', { command: 'wc -l notes.md' }, context()))).toContain('2');
    expect(text(await toolSet.execute('js_exec', { code: '6 * 7' }, context()))).toContain('42');

    // Denied by rule: nothing is written.
    const write = await toolSet.execute('write', { file_path: 'new.md', content: 'x' }, context());
    expect(write.isError).toBe(true);
    expect(text(write)).toContain('write(**)');
    await expect(readFile(join(root, 'new.md'), 'utf8')).rejects.toThrow();
    // Not allowed by a rule and no user to ask: refused with a reason.
    const other = await toolSet.execute('bash', { command: 'rm notes.md' }, context());
    expect(other.isError).toBe(true);
    expect(await readFile(join(root, 'notes.md'), 'utf8')).toContain('port 8080');
    // web_fetch with an empty allowlist reaches nothing (and asks first anyway).
    expect((await toolSet.execute('web_fetch', { url: 'http://127.0.0.1:9/' }, context())).isError).toBe(true);
  });
});
