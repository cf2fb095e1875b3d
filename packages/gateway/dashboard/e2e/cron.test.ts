import { Cron } from 'croner';
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
  gateway = await startDashboardGateway({
    steps: [{ text: 'Report written.', usage: { input: 800, output: 120 } }],
    repeatLast: true,
  });
});
afterAll(async () => {
  await gateway?.close();
  await closeBrowser();
});

describe.skipIf(!hasChromium)(`cron page in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('creates a job whose preview matches croner in its zone, shows a bad expression under its field, runs it now and logs the run', async () => {
    const running = gateway as DashboardGateway;
    const { context, page, errors } = await openPage(running.url, '/ui/cron');
    await expect.poll(() => page.getByText('No cron jobs yet', { exact: false }).isVisible(), WAIT).toBe(true);

    await page.getByRole('button', { name: 'New job' }).click();
    const dialog = page.getByRole('dialog', { name: 'New cron job' });
    await dialog.getByLabel('Name').fill('weekday-report');
    await dialog.getByLabel('Time zone').selectOption('Europe/Paris');
    const schedule = dialog.getByLabel('Schedule (cron expression)');

    // A bad expression: the gateway's CronError names the `cron` field, and the message shows under it.
    await schedule.fill('61 * * * *');
    await expect.poll(() => schedule.getAttribute('aria-invalid'), WAIT).toBe('true');
    const describedBy = (await schedule.getAttribute('aria-describedby')) ?? '';
    const errorId = describedBy.split(' ').find((id) => id.endsWith('-error')) as string;
    expect(errorId).toBeDefined();
    expect((await page.locator(`[id="${errorId}"]`).textContent())?.length).toBeGreaterThan(5);

    // A good one: the preview's instants are croner's for the same expression and zone.
    await schedule.fill('30 9 * * 1-5');
    await expect.poll(() => schedule.getAttribute('aria-invalid'), WAIT).toBe(null);
    const preview = dialog.getByRole('list', { name: 'Next runs' });
    await expect.poll(() => preview.getByRole('listitem').count(), WAIT).toBe(5);
    const shown = await preview
      .locator('time')
      .evaluateAll((times) => times.map((time) => time.getAttribute('datetime')));
    const expected = new Cron('30 9 * * 1-5', { timezone: 'Europe/Paris' })
      .nextRuns(5)
      .map((date) => date.toISOString());
    expect(shown).toEqual(expected);
    expect(await dialog.getByText('At 09:30 on weekdays').count()).toBeGreaterThan(0);
    await checkPageInBothThemes(page, 'cron-form');

    await dialog.getByLabel('Prompt').fill('Write the daily report.');
    await dialog.getByRole('button', { name: 'Create job' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'New cron job' }).count(), WAIT).toBe(0);
    const row = page.getByRole('row', { name: /weekday-report/ });
    await expect.poll(() => row.getByText('Europe/Paris').count(), WAIT).toBe(1);
    await expect.poll(() => row.getByText('enabled', { exact: true }).count(), WAIT).toBe(1);
    const stored = (await (await fetch(`${running.url}/cron/jobs/weekday-report`)).json()) as {
      timezone: string;
      cron: string;
      prompt: string;
    };
    expect(stored).toMatchObject({ timezone: 'Europe/Paris', cron: '30 9 * * 1-5', prompt: 'Write the daily report.' });

    // Run now: the log shows the run's outcome, its cost column and a link to its session.
    await page.getByRole('button', { name: 'Run now: weekday-report' }).click();
    const log = page.getByRole('region', { name: 'Run log of weekday-report' });
    await expect.poll(() => log.getByText('success', { exact: true }).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => log.getByText('end_turn').count(), WAIT).toBe(1);
    const sessionLink = log.getByRole('link', { name: 'Open session' });
    const href = (await sessionLink.getAttribute('href')) as string;
    const runs = (await (await fetch(`${running.url}/cron/jobs/weekday-report/runs`)).json()) as {
      runs: { sessionId: string; trigger: string }[];
    };
    expect(runs.runs[0]?.trigger).toBe('manual');
    expect(href).toBe(`/ui/sessions/${encodeURIComponent(runs.runs[0]?.sessionId as string)}`);
    await checkPageInBothThemes(page, 'cron');

    // Disable, then delete behind a confirmation (Cancel keeps it).
    await page.getByRole('button', { name: 'Disable weekday-report' }).click();
    await expect.poll(() => row.getByText('disabled', { exact: true }).count(), WAIT).toBe(1);
    await page.getByRole('button', { name: 'Delete weekday-report' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the job?' });
    await checkPageInBothThemes(page, 'cron-delete');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await fetch(`${running.url}/cron/jobs/weekday-report`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete weekday-report' }).click();
    await page.getByRole('dialog', { name: 'Delete the job?' }).getByRole('button', { name: 'Delete job' }).click();
    await expect.poll(() => page.getByText('No cron jobs yet', { exact: false }).isVisible(), WAIT).toBe(true);
    expect((await fetch(`${running.url}/cron/jobs/weekday-report`)).status).toBe(404);
    // The one refused request is the preview of the bad expression above (the browser logs every 4xx).
    expectCleanConsole(errors, [/status of 400/]);
    await context.close();
  }, 90_000);
});
