import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type FsToolsFixture, makeTempRoot, removeTempRoot, startFsTools, textOf } from './test-support.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
const GIF = new TextEncoder().encode('GIF89a\u0001\u0000\u0001\u0000');
const WEBP = new TextEncoder().encode('RIFF\u0010\u0000\u0000\u0000WEBPVP8 ');

let fixture: FsToolsFixture;
let root: string;

beforeAll(async () => {
  fixture = await startFsTools();
  const many = Array.from({ length: 2500 }, (_, index) => `line ${index + 1}`).join('\n');
  root = await makeTempRoot({
    'hello.txt': 'hello\nworld\n',
    'crlf.txt': 'one\r\ntwo\r\n',
    'empty.txt': '',
    'many.txt': `${many}\n`,
    'long.txt': `${'x'.repeat(3000)}\nshort\n`,
    'unicode.txt': 'héllo wörld 🙂\n',
    'binary.bin': Uint8Array.from([1, 2, 0, 3, 4]),
    'image.png': PNG,
    'photo.jpg': JPEG,
    'anim.gif': GIF,
    'pic.webp': WEBP,
    'fake.png': 'not really an image\n',
    'dir/a.ts': 'a\n',
    'dir/sub/b.ts': 'b\n',
  });
});

afterAll(async () => {
  await fixture.close();
  await removeTempRoot(root);
});

describe('read', () => {
  it('shows lines numbered like cat -n', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'hello.txt' }, root);
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe('     1\thello\n     2\tworld');
  });

  it('takes guest-absolute and host-absolute paths to the same file', async () => {
    const guest = await callTool(fixture, 'read', { file_path: '/hello.txt' }, root);
    const host = await callTool(fixture, 'read', { file_path: `${root}/hello.txt` }, root);
    expect(textOf(guest)).toBe('     1\thello\n     2\tworld');
    expect(textOf(host)).toBe(textOf(guest));
  });

  it('drops the carriage return of CRLF lines and decodes UTF-8', async () => {
    expect(textOf(await callTool(fixture, 'read', { file_path: 'crlf.txt' }, root))).toBe('     1\tone\n     2\ttwo');
    expect(textOf(await callTool(fixture, 'read', { file_path: 'unicode.txt' }, root))).toBe('     1\théllo wörld 🙂');
  });

  it('reads from offset for limit lines and says how to read on', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'many.txt', offset: 10, limit: 3 }, root);
    const text = textOf(result);
    expect(text.startsWith('    10\tline 10\n    11\tline 11\n    12\tline 12\n')).toBe(true);
    expect(text).toContain('showing lines 10-12 of 2500');
    expect(text).toContain('offset=13');
    expect(result.metadata).toMatchObject({ totalLines: 2500, startLine: 10, endLine: 12, truncated: true });
  });

  it('stops at 2000 lines by default with a truncation note', async () => {
    const text = textOf(await callTool(fixture, 'read', { file_path: 'many.txt' }, root));
    expect(text).toContain('  2000\tline 2000');
    expect(text).not.toContain('line 2001');
    expect(text).toContain('showing lines 1-2000 of 2500');
    expect(text).toContain('offset=2001');
  });

  it('cuts lines longer than 2000 characters and says so', async () => {
    const text = textOf(await callTool(fixture, 'read', { file_path: 'long.txt' }, root));
    const first = text.split('\n')[0] ?? '';
    expect(first.startsWith(`     1\t${'x'.repeat(2000)}...`)).toBe(true);
    expect(first).toContain('3000 characters');
    expect(text).toContain('     2\tshort');
    expect(text).toContain('longer than 2000 characters');
  });

  it('refuses an offset past the end', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'hello.txt', offset: 5 }, root);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('has 2 lines; offset 5 is past the end');
  });

  it('says a file is empty', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'empty.txt' }, root);
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toBe('The file /empty.txt exists but is empty (0 bytes).');
  });

  it('refuses binary files', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'binary.bin' }, root);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('/binary.bin is a binary file');
  });

  it.each([
    ['image.png', 'image/png', PNG],
    ['photo.jpg', 'image/jpeg', JPEG],
    ['anim.gif', 'image/gif', GIF],
    ['pic.webp', 'image/webp', WEBP],
  ])('returns %s as %s image content', async (name, mediaType, bytes) => {
    const result = await callTool(fixture, 'read', { file_path: name }, root);
    expect(result.isError).not.toBe(true);
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toBeDefined();
    expect(JSON.stringify(image)).toContain(mediaType);
    expect(JSON.stringify(image)).toContain(Buffer.from(bytes).toString('base64'));
  });

  it('goes by magic bytes, not the extension', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'fake.png' }, root);
    expect(result.content.some((block) => block.type === 'image')).toBe(false);
    expect(textOf(result)).toBe('     1\tnot really an image');
  });

  it('says a directory is a directory and lists it', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'dir' }, root);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('/dir is a directory');
    expect(textOf(result)).toContain('a.ts\nsub/');
  });

  it('says a missing file does not exist', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'nope.txt' }, root);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('File does not exist: /nope.txt');
  });

  it('rejects a bad offset through the schema', async () => {
    const result = await callTool(fixture, 'read', { file_path: 'hello.txt', offset: 0 }, root);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('offset');
  });
});
