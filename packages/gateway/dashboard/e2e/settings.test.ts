import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_KEY } from '../../src/test/test-workspace.js';
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
  gateway = await startDashboardGateway({ steps: [{ text: 'ok' }] }, { permissions: { deny: ['bash(rm *)'] } });
});
afterAll(async () => {
  await gateway?.close();
  await closeBrowser();
});

describe.skipIf(!hasChromium)(`settings page in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('shows key states without keys, edits permissions, AGENTS.md and a style on disk', async () => {
    const running = gateway as DashboardGateway;
    const dir = running.test.dir;
    const { context, page, errors } = await openPage(running.url, '/ui/settings');
    const providers = page.getByRole('region', { name: 'Providers' });
    const anthropic = providers.getByRole('row').filter({ hasText: '(anthropic)' });
    await expect.poll(() => anthropic.getByText('set', { exact: true }).count(), WAIT).toBe(1);
    const models = page.getByRole('region', { name: 'Models and prices' });
    await expect.poll(() => models.getByRole('row').count(), WAIT).toBeGreaterThan(1);

    // Permissions: the config's deny rule is shown; a new mode is written into boxagnts.json.
    const permissions = page.getByRole('region', { name: 'Permissions' });
    await expect.poll(() => permissions.getByLabel('Deny rules').inputValue(), WAIT).toBe('bash(rm *)');
    await permissions.getByLabel('Mode').selectOption('plan');
    await permissions.getByLabel('Ask rules').fill('write_file\nedit_file');
    await permissions.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => permissions.getByText('Saved to boxagnts.json.').count(), WAIT).toBe(1);
    const config = JSON.parse(await readFile(join(dir, 'boxagnts.json'), 'utf8'));
    expect(config.permissions).toEqual({
      deny: ['bash(rm *)'],
      mode: 'plan',
      ask: ['write_file', 'edit_file'],
      allow: [],
    });

    // AGENTS.md: edited and saved, the file on disk changed.
    const agentsMd = page.getByLabel('AGENTS.md content');
    await expect.poll(() => agentsMd.isEnabled(), WAIT).toBe(true);
    await agentsMd.fill('# House rules\n\nAnswer in English.\n');
    await page.getByRole('button', { name: 'Save AGENTS.md' }).click();
    await expect
      .poll(() => readFile(join(dir, 'AGENTS.md'), 'utf8'), WAIT)
      .toBe('# House rules\n\nAnswer in English.\n');

    // Output styles: a new one written to output-styles/<name>.md.
    await page.getByRole('button', { name: 'New style' }).click();
    const style = page.getByRole('dialog', { name: 'New output style' });
    await style.getByLabel('Name').fill('pirate');
    await style.getByLabel('Description').fill('Talks like a pirate.');
    await style.getByLabel('Instruction').fill('Answer like a pirate.');
    await checkPageInBothThemes(page, 'settings-style');
    await style.getByRole('button', { name: 'Save style' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Delete style pirate' }).count(), WAIT).toBe(1);
    expect(await readFile(join(dir, 'output-styles', 'pirate.md'), 'utf8')).toContain('Answer like a pirate.');

    await checkPageInBothThemes(page, 'settings');
    expectCleanConsole(errors);
    await context.close();
  }, 90_000);

  it('creates a token shown once (listed by name only afterwards, usable), and revokes it after confirming', async () => {
    const running = gateway as DashboardGateway;
    const { context, page, errors } = await openPage(running.url, '/ui/settings');
    await page.getByLabel('New token name').fill('laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Token laptop' });
    const tokenInput = shown.getByLabel('The new token');
    await expect.poll(() => tokenInput.inputValue(), WAIT).toMatch(/^bxg_/);
    const token = await tokenInput.inputValue();
    await checkPageInBothThemes(page, 'settings-token');
    await shown.getByRole('button', { name: 'Done' }).click();
    const tokens = page.getByRole('region', { name: 'Gateway tokens' });
    await expect.poll(() => tokens.getByRole('row').filter({ hasText: 'laptop' }).count(), WAIT).toBe(1);
    expect(await page.content()).not.toContain(token);
    expect((await fetch(`${running.url}/tokens`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    await page.reload();
    await expect.poll(() => tokens.getByRole('row').filter({ hasText: 'laptop' }).count(), WAIT).toBe(1);
    const html = await page.content();
    expect(html).not.toContain(token);
    expect(html).not.toContain(CANARY_KEY);
    await page.getByRole('button', { name: 'Revoke token laptop' }).click();
    await page.getByRole('dialog', { name: 'Revoke the token?' }).getByRole('button', { name: 'Revoke token' }).click();
    await expect.poll(() => tokens.getByText(/^revoked/).count(), WAIT).toBe(1);
    expect(
      ((await (await fetch(`${running.url}/tokens`)).json()) as { tokens: { lastUsedAt?: number }[] }).tokens[0]
        ?.lastUsedAt,
    ).toBeGreaterThan(0);
    expect(running.gateway.tokens.verify(token)).toBeUndefined();
    expectCleanConsole(errors);
    await context.close();
  }, 90_000);
});
