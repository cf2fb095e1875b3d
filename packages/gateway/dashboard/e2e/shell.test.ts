import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../src/dashboard/dashboard-routes.js';
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
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});
afterAll(closeBrowser);

describe.skipIf(!hasChromium)(`dashboard shell in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('`/` opens the dashboard under the strict CSP, every page is reachable by keyboard alone', async () => {
    gateway = await startDashboardGateway({ steps: [{ text: 'hello' }] });
    const { context, page, errors } = await openPage(gateway.url, '/');
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/ui/chat');
    const response = await page.request.get(new URL('/ui/', gateway.url).href);
    expect(response.headers()['content-security-policy']).toBe(DASHBOARD_CSP);
    // Skip link first, then the navigation: Tab reaches the Sessions link and Enter opens it.
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent), { timeout: 15_000 })
      .toBe('Skip to content');
    let guard = 0;
    while ((await page.evaluate(() => document.activeElement?.textContent)) !== 'Sessions' && guard++ < 20) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/ui/sessions');
    await checkPageInBothThemes(page, 'shell');
    expectCleanConsole(errors);
    await context.close();
  });
});
