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

/** Polls wait up to 15 s: the machine runs many suites at once. */
const WAIT = { timeout: 15_000 };

let gateway: DashboardGateway | undefined;
beforeAll(async () => {
  if (!hasChromium) return;
  gateway = await startDashboardGateway({ steps: [{ text: 'ok' }] });
});
afterAll(async () => {
  await gateway?.close();
  await closeBrowser();
});

describe.skipIf(!hasChromium)(`sites page in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('creates a site (listed with a new-tab link to its own origin), refuses a bad name, sets a login, deletes after confirming', async () => {
    const running = gateway as DashboardGateway;
    const { context, page, errors } = await openPage(running.url, '/ui/sites');
    await expect.poll(() => page.getByText('No sites yet', { exact: false }).count(), WAIT).toBe(1);

    await page.getByRole('button', { name: 'New site' }).click();
    const dialog = page.getByRole('dialog', { name: 'New site' });
    await dialog.getByLabel('Site name').fill('Bad Name!');
    await dialog.getByRole('button', { name: 'Create site' }).click();
    await expect.poll(() => dialog.getByRole('alert').count(), WAIT).toBeGreaterThan(0);
    await checkPageInBothThemes(page, 'sites-create');
    await dialog.getByLabel('Site name').fill('docs');
    await dialog.getByRole('button', { name: 'Create site' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'New site' }).count(), WAIT).toBe(0);

    const listed = (await (await fetch(`${running.url}/sites/docs`)).json()) as { url: string };
    const link = page.getByRole('link', { name: /opens docs in a new tab/ });
    await expect.poll(() => link.getAttribute('href'), WAIT).toBe(listed.url);
    expect(new URL(listed.url).origin).not.toBe(new URL(running.url).origin);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect((await link.getAttribute('rel'))?.split(' ')).toContain('noopener');
    const row = page.getByRole('row', { name: /docs/ });
    expect(await row.getByText('open', { exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Login of docs' }).click();
    const login = page.getByRole('dialog', { name: 'Login of docs' });
    await login.getByLabel('User').fill('reader');
    await login.getByLabel('Password').fill('correct-horse-9');
    await checkPageInBothThemes(page, 'sites-login');
    await login.getByRole('button', { name: 'Set login' }).click();
    await expect.poll(() => row.getByText('login: reader').count(), WAIT).toBe(1);
    expect(await page.content()).not.toContain('correct-horse-9');
    expect(((await (await fetch(`${running.url}/sites/docs`)).json()) as { auth: unknown }).auth).toEqual({
      user: 'reader',
    });
    await checkPageInBothThemes(page, 'sites');

    await page.getByRole('button', { name: 'Delete docs' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the site?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await fetch(`${running.url}/sites/docs`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete docs' }).click();
    await page.getByRole('dialog', { name: 'Delete the site?' }).getByRole('button', { name: 'Delete site' }).click();
    await expect.poll(() => page.getByText('No sites yet', { exact: false }).count(), WAIT).toBe(1);
    expect((await fetch(`${running.url}/sites/docs`)).status).toBe(404);
    // The one refused request is the bad site name above (the browser logs every 4xx).
    expectCleanConsole(errors, [/status of 400/]);
    await context.close();
  }, 90_000);
});
