import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPageInBothThemes,
  closeBrowser,
  type DashboardGateway,
  expectCleanConsole,
  hasChromium,
  openPage,
  SKIP_REASON,
  startDashboardGateway,
} from './harness.js';

let gateway: DashboardGateway | undefined;
let root = '';

beforeAll(async () => {
  if (!hasChromium) return;
  gateway = await startDashboardGateway({ steps: [] });
  root = gateway.test.workspace.paths.root;
  await mkdir(join(root, 'docs'), { recursive: true });
  await writeFile(join(root, 'docs', 'readme.md'), '# Hello\n');
  await writeFile(join(root, 'image.bin'), new Uint8Array([0, 1, 2, 255]));
}, 60_000);
afterAll(async () => {
  await closeBrowser();
  await gateway?.close();
});

describe.skipIf(!hasChromium)(`files page in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('a file is edited and saved (on disk), a stale save is refused, files are uploaded, moved and deleted', async () => {
    const { context, page, errors } = await openPage(gateway?.url ?? '', '/ui/files');
    await page.getByRole('button', { name: 'Open folder docs' }).click();
    await page.getByRole('button', { name: 'Open readme.md' }).click();
    const editor = page.getByRole('textbox', { name: 'Contents of readme.md' });
    await expect.poll(() => editor.inputValue()).toBe('# Hello\n');
    await editor.fill('# Hello\n\nEdited in the dashboard.\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect(await readFile(join(root, 'docs', 'readme.md'), 'utf8')).toBe('# Hello\n\nEdited in the dashboard.\n');
    await checkPageInBothThemes(page, 'files-editor');

    // Someone else changes the file: the next save is refused and the user picks what to do.
    await writeFile(join(root, 'docs', 'readme.md'), 'their version\n');
    await editor.fill('my version\n');
    await editor.press('Control+s');
    await page
      .getByRole('alert')
      .getByText(/changed since you read it/)
      .waitFor();
    expect(await readFile(join(root, 'docs', 'readme.md'), 'utf8')).toBe('their version\n');
    await page.getByRole('button', { name: 'Reload (drop my changes)' }).click();
    await expect.poll(() => editor.inputValue()).toBe('their version\n');

    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Upload files' }).click(),
    ]);
    await chooser.setFiles({ name: 'up.txt', mimeType: 'text/plain', buffer: Buffer.from('uploaded') });
    await page.getByRole('button', { name: 'Open up.txt' }).waitFor();
    expect(await readFile(join(root, 'docs', 'up.txt'), 'utf8')).toBe('uploaded');

    await page.getByRole('button', { name: 'Move or rename up.txt' }).click();
    const move = page.getByRole('dialog', { name: 'Move or rename up.txt' });
    await move.getByRole('textbox', { name: 'New path (from root)' }).fill('docs/moved.txt');
    await move.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('button', { name: 'Open moved.txt' }).waitFor();
    expect(await readFile(join(root, 'docs', 'moved.txt'), 'utf8')).toBe('uploaded');

    await page.getByRole('button', { name: 'Delete moved.txt' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete?' });
    await confirm.waitFor();
    await checkPageInBothThemes(page, 'files-delete-dialog');
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Open moved.txt' }).count()).toBe(0);
    expect(existsSync(join(root, 'docs', 'moved.txt'))).toBe(false);

    // Back to root/ through the breadcrumbs; a binary file is offered as a download, not opened as text.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'root' }).click();
    await page.getByRole('button', { name: 'Open image.bin' }).click();
    await page.getByText('image.bin is a binary file (4 B)').waitFor();
    expect(await page.getByRole('textbox', { name: 'Contents of image.bin' }).count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download image.bin' }).click(),
    ]);
    expect([...(await readFile(await download.path()))]).toEqual([0, 1, 2, 255]);

    await page.getByRole('button', { name: 'New folder' }).click();
    const folder = page.getByRole('dialog', { name: 'New folder' });
    await folder.getByRole('textbox', { name: 'Name (in root)' }).fill('drafts');
    await folder.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Open folder drafts' }).waitFor();
    expect(existsSync(join(root, 'drafts'))).toBe(true);
    await checkPageInBothThemes(page, 'files');
    // The browser logs the refused stale save (409) that this test provoked on purpose.
    expectCleanConsole(errors, [/status of 409 \(Conflict\)/]);
    await context.close();
  });
});
