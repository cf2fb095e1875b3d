// The guest's UTF-8 and base64 paths (C built-ins for the common cases, byte loops as fallbacks)
// and its chunked reads, checked against Node's own encoders on the bytes that reach the disk.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type FsToolsFixture, makeTempRoot, removeTempRoot, startFsTools, textOf } from './test-support.js';

let fixture: FsToolsFixture;
let root: string;

/** 3000 lines mixing 1-, 2-, 3- and 4-byte characters: past the 8 KiB and 64 KiB boundaries. */
const MIXED_LINES = Array.from({ length: 3000 }, (_, index) => `${index} ascii é € 🙂 ${'ж'.repeat(index % 40)}`);
const PNG_ODD = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0x80, 0x7f, 0xfe]);

beforeAll(async () => {
  fixture = await startFsTools();
  root = await makeTempRoot({
    'mixed.txt': `${MIXED_LINES.join('\n')}\n`,
    'invalid.txt': Uint8Array.from([0x61, 0xc3, 0x28, 0x62, 0xed, 0xa0, 0x80, 0x63, 0xe2, 0x82, 0x0a]),
    'odd.png': PNG_ODD,
    'edit.txt': 'über 🙂 alpha € tail ω\nsecond 🙂 alpha line\n',
  });
});

afterAll(async () => {
  await fixture.close();
  await removeTempRoot(root);
});

describe('text encoding in the guest', () => {
  it('reads a large multi-byte file exactly, across chunk boundaries', async () => {
    const { size } = await import('node:fs/promises').then((fs) => fs.stat(join(root, 'mixed.txt')));
    expect(size).toBeGreaterThan(128 * 1024);
    const result = await callTool(fixture, 'read', { file_path: 'mixed.txt', offset: 1, limit: 3000 }, root);
    const expected = MIXED_LINES.map((line, index) => `${String(index + 1).padStart(6, ' ')}\t${line}`);
    // Numbered lines up to the output cap, then a note saying where to read on.
    const lines = textOf(result).split('\n\n')[0]?.split('\n') ?? [];
    expect(lines.length).toBeGreaterThan(2000);
    expect(lines).toEqual(expected.slice(0, lines.length));
  });

  it('shows invalid UTF-8 as U+FFFD per bad byte', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'invalid.txt' }, root);
    expect(textOf(result)).toBe('     1\ta\uFFFD(b\uFFFD\uFFFD\uFFFDc\uFFFD\uFFFD');
  });

  it('returns image bytes as the same base64 Node makes', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'odd.png' }, root);
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toMatchObject({ source: { data: Buffer.from(PNG_ODD).toString('base64') } });
  });

  it('edits around multi-byte text, keeping every other byte as it was', async () => {
    const path = join(root, 'edit.txt');
    const before = await readFile(path, 'utf8');
    const one = await callTool(
      fixture,
      'edit',
      { file_path: 'edit.txt', old_string: '€ tail', new_string: '₿ end' },
      root,
    );
    expect(one.isError).not.toBe(true);
    const afterOne = before.replace('€ tail', '₿ end');
    expect(await readFile(path)).toEqual(Buffer.from(afterOne, 'utf8'));

    const all = await callTool(
      fixture,
      'edit',
      { file_path: 'edit.txt', old_string: '🙂 alpha', new_string: 'Ω', replace_all: true },
      root,
    );
    expect(all.isError).not.toBe(true);
    expect(await readFile(path)).toEqual(Buffer.from(afterOne.replaceAll('🙂 alpha', 'Ω'), 'utf8'));
  });

  it('writes a lone surrogate as U+FFFD', async () => {
    const result = await callTool(fixture, 'write', { file_path: 'lone.txt', content: 'a\uD83Db\uDE00é' }, root);
    expect(result.isError).not.toBe(true);
    expect(await readFile(join(root, 'lone.txt'))).toEqual(Buffer.from('a\uFFFDb\uFFFDé', 'utf8'));
    const edit = await callTool(
      fixture,
      'edit',
      { file_path: 'lone.txt', old_string: 'é', new_string: '\uDC00!' },
      root,
    );
    expect(edit.isError).not.toBe(true);
    expect(textOf(edit)).toContain('\uFFFD!');
    expect(await readFile(join(root, 'lone.txt'))).toEqual(Buffer.from('a\uFFFDb\uFFFD\uFFFD!', 'utf8'));
  });
});
