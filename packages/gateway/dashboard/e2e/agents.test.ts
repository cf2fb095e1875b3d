import { mkdir, writeFile } from 'node:fs/promises';
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

beforeAll(async () => {
  if (!hasChromium) return;
  gateway = await startDashboardGateway(
    { steps: [] },
    { agents: { reviewer: { description: 'Reviews', access: 'read-only' } } },
  );
  const folder = gateway.test.workspace.config.skills.folders[0] ?? join(gateway.test.dir, 'skills');
  await mkdir(join(folder, 'summarise'), { recursive: true });
  await writeFile(
    join(folder, 'summarise', 'SKILL.md'),
    '---\nname: summarise\ndescription: Summarises a file\nargs:\n  - name: file\n    description: The file to read\n    required: true\n---\nRead $file and summarise it.\n',
  );
}, 60_000);
afterAll(async () => {
  await closeBrowser();
  await gateway?.close();
});

describe.skipIf(!hasChromium)(`agents page in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('lists the agents with access levels, the skills with their arguments and the tools with their origin', async () => {
    const { context, page, errors } = await openPage(gateway?.url ?? '', '/ui/agents');
    const agents = page.getByRole('table', { name: 'Agents with their access levels and models' });
    const reviewer = agents.getByRole('row', { name: /reviewer/ });
    await reviewer.waitFor();
    expect(await reviewer.getByText('read-only', { exact: true }).isVisible()).toBe(true);
    expect(await agents.getByRole('row', { name: /build/ }).getByText('default', { exact: true }).count()).toBe(1);

    const skills = page.getByRole('table', { name: 'Skills with their arguments' });
    const skill = skills.getByRole('row', { name: /summarise/ });
    await skill.waitFor();
    expect(await skill.textContent()).toContain('file (required)');

    const tools = page.getByRole('table', { name: /Tools of build/ });
    const read = tools.getByRole('row', { name: /^read\b/ });
    await read.waitFor();
    expect(await read.getByRole('cell').first().textContent()).toBe('component');
    const native = tools.getByRole('row').filter({ hasText: 'native' });
    expect(await native.count()).toBeGreaterThan(0);
    expect(await native.first().getByRole('cell').first().textContent()).toBe('built-in');
    await checkPageInBothThemes(page, 'agents');

    // Another agent's tool set: a read-only agent has no write tool.
    await page.getByRole('combobox', { name: 'Agent' }).selectOption('reviewer');
    await page.getByRole('table', { name: /Tools of reviewer/ }).waitFor();
    const reviewerTools = page.getByRole('table', { name: /Tools of reviewer/ });
    expect(await reviewerTools.getByRole('row', { name: /^write\b/ }).count()).toBe(0);
    expect(await reviewerTools.getByRole('row', { name: /^read\b/ }).count()).toBe(1);
    await page.getByRole('searchbox', { name: 'Filter tools' }).fill('component');
    await expect.poll(() => reviewerTools.getByRole('row').filter({ hasText: 'built-in' }).count()).toBe(0);
    expectCleanConsole(errors);
    await context.close();
  });
});
