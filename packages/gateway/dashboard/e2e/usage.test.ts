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
    steps: [{ text: 'Counted.', usage: { input: 1200, output: 340 } }],
    repeatLast: true,
  });
});
afterAll(async () => {
  await gateway?.close();
  await closeBrowser();
});

interface UsageRow {
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

describe.skipIf(!hasChromium)(`usage page in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('shows the calls and tokens of two runs in each chart and the table beside it', async () => {
    const running = gateway as DashboardGateway;
    for (const session of ['usage-a', 'usage-b']) {
      const run = await fetch(`${running.url}/sessions/${session}/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'Count the files.', mode: 'wait' }),
      });
      expect(((await run.json()) as { status: string }).status).toBe('completed');
    }
    const report = (await (await fetch(`${running.url}/usage?groupBy=model`)).json()) as { rows: UsageRow[] };
    expect(report.rows).toHaveLength(1);
    const [model] = report.rows as [UsageRow];
    expect(model.calls).toBe(2);

    const { context, page, errors } = await openPage(running.url, '/ui/usage');
    const byModel = page.getByRole('region', { name: 'By model' });
    const row = byModel
      .getByRole('table')
      .getByRole('row', { name: new RegExp(model.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
    await expect
      .poll(() => row.getByRole('cell').allTextContents(), WAIT)
      .toEqual([
        '2',
        model.inputTokens.toLocaleString('en-US'),
        model.outputTokens.toLocaleString('en-US'),
        expect.any(String),
        expect.any(String),
      ]);
    // Sessions: one row per run's session, one call each.
    const bySession = page.getByRole('region', { name: 'By session' }).getByRole('table');
    for (const session of ['usage-a', 'usage-b']) {
      await expect
        .poll(
          () =>
            bySession
              .getByRole('row', { name: new RegExp(session) })
              .getByRole('cell')
              .first()
              .textContent(),
          WAIT,
        )
        .toBe('1');
    }
    // The chart (hidden from assistive technology: the table is its accessible form) draws one bar per
    // group: the model's name is on its axis and one bar is drawn.
    const chart = byModel.getByTestId('usage-chart-model');
    await expect.poll(() => chart.getByText(model.key).count(), WAIT).toBe(1);
    await expect.poll(() => chart.locator('.recharts-bar-rectangle').count(), WAIT).toBe(1);
    const byDay = page.getByRole('region', { name: 'By day' });
    await expect.poll(() => byDay.getByRole('table').getByRole('row').count(), WAIT).toBe(2);
    await checkPageInBothThemes(page, 'usage');

    // Tokens view: input and output stacked, so two bars for the model.
    await page.getByRole('radio', { name: 'Tokens' }).check();
    await expect.poll(() => chart.locator('.recharts-bar-rectangle').count(), WAIT).toBe(2);

    // A range before the runs shows the empty state, and a backwards range says what to change.
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-01-31');
    await expect.poll(() => byModel.getByText('No model calls in this range.').count(), WAIT).toBe(1);
    await page.getByLabel('From', { exact: true }).fill('2020-02-10');
    await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toContain('“From” is after “To”');
    expectCleanConsole(errors);
    await context.close();
  }, 90_000);
});
