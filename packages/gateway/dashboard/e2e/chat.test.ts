import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
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

const usage = { input: 120, output: 40 };
const FILE_TEXT = 'HELLO-FILE-CONTENT';
const NOTES_TEXT = 'SECRET-NOTES-TEXT';
const AFTER_TOOL = 'The file says hello.\n\n```ts\nconst answer = 42;\n```\n';
/** Word lists the slow runs stream a few characters at a time (so a reload lands mid-text). */
const words = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}${String(index + 1).padStart(3, '0')}`).join(' ');
const SLOW_TEXT = words('w', 200);
const CANCEL_TEXT = words('c', 400);

/** Each test is a whole user journey (several runs, tabs and reloads); a loaded CI machine needs the room. */
const JOURNEY_TIMEOUT_MS = 120_000;

let gateway: DashboardGateway | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  // A rule matches anywhere in the request body: the tool result rule first, the later run of a session before the earlier.
  gateway = await startDashboardGateway(
    {
      rules: [
        { match: { contains: '"tool_result"' }, steps: [{ text: AFTER_TOOL, usage }], repeatLast: true },
        {
          match: { contains: 'CANCEL-ME' },
          steps: [{ text: CANCEL_TEXT, usage, chunking: { textDelta: 5, delayMs: 60 } }],
          repeatLast: true,
        },
        {
          match: { contains: 'SLOW-STORY' },
          steps: [{ text: SLOW_TEXT, usage, chunking: { textDelta: 5, delayMs: 50 } }],
          repeatLast: true,
        },
        {
          match: { contains: 'READ-HELLO' },
          steps: [
            {
              content: [
                { type: 'thinking', thinking: 'The user wants the file.', signature: 'sig-1' },
                { type: 'tool_call', name: 'read', input: { file_path: 'hello.txt' } },
              ],
              usage,
            },
          ],
          repeatLast: true,
        },
        {
          match: { contains: 'ASK-NOTES' },
          steps: [{ content: [{ type: 'tool_call', name: 'read', input: { file_path: 'notes.md' } }], usage }],
          repeatLast: true,
        },
      ],
      steps: [{ text: 'plain answer', usage }],
      repeatLast: true,
    },
    { permissions: { ask: ['read(notes.md)'] } },
  );
  await writeFile(join(gateway.test.workspace.paths.root, 'hello.txt'), `${FILE_TEXT}\n`);
  await writeFile(join(gateway.test.workspace.paths.root, 'notes.md'), `${NOTES_TEXT}\n`);
});
afterAll(async () => {
  await gateway?.close();
  await closeBrowser();
});

const currentRun = (page: Page) => page.getByRole('article', { name: 'Current run' });
const runStatus = (page: Page) => currentRun(page).getByRole('status');

async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill(text);
  await box.press('Enter');
}

/** The streamed answer's paragraphs in the current run (the slow scripts are one paragraph of words). */
async function answerText(page: Page, first: string): Promise<string> {
  return (await currentRun(page).getByRole('paragraph').filter({ hasText: first }).allTextContents()).join('\n');
}

describe.skipIf(!hasChromium)(`chat page in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it(
    'a run with a tool call streams to its end: thinking collapsed, the tool card, Markdown with highlighted code, tokens and cost; the history after a reload',
    async () => {
      const { context, page, errors } = await openPage(gateway?.url as string, '/ui/chat');
      await expect.poll(() => page.getByText('Start a conversation').isVisible()).toBe(true);
      await expect.poll(() => page.getByRole('combobox', { name: 'Agent' }).isVisible()).toBe(true);
      await expect
        .poll(() => page.getByRole('combobox', { name: 'Model' }).locator('option').allTextContents())
        .toContain('Default (anthropic/claude-sonnet-4-6)');
      await sendMessage(page, 'READ-HELLO please');
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 10_000 }).toMatch(/^\/ui\/chat\/[^/]+$/);
      await expect.poll(() => runStatus(page).textContent(), { timeout: 15_000 }).toBe('Completed');
      const card = currentRun(page).getByRole('region', { name: 'Tool call read (done)' });
      expect(await card.textContent()).toContain(FILE_TEXT);
      expect(await card.textContent()).toContain('"file_path": "hello.txt"');
      // Thinking is there, collapsed.
      const thinking = currentRun(page).getByText('Thinking', { exact: true });
      expect(await thinking.isVisible()).toBe(true);
      expect(await currentRun(page).getByText('The user wants the file.').isVisible()).toBe(false);
      // The answer is Markdown with its code block highlighted (never raw HTML).
      expect(await answerText(page, 'The file says hello.')).toBe('The file says hello.');
      const code = currentRun(page).getByRole('code').filter({ hasText: 'const answer = 42;' });
      expect(await code.count()).toBe(1);
      expect(await code.evaluate((element) => element.querySelectorAll('[class^="hljs-"]').length)).toBeGreaterThan(0);
      // Two model calls of 120 + 40 tokens each.
      expect(await currentRun(page).getByText('240 tokens in, 80 out').isVisible()).toBe(true);
      expect(await page.getByRole('textbox', { name: 'Message', exact: true }).isEditable()).toBe(true);
      await checkPageInBothThemes(page, 'chat');

      // Opened again, the conversation comes from the session's history, once.
      await page.reload();
      const conversation = page.getByRole('region', { name: 'Conversation' });
      await expect.poll(() => conversation.getByText('The file says hello.').count(), { timeout: 10_000 }).toBe(1);
      expect(await conversation.getByText('READ-HELLO please').count()).toBe(1);
      expect(await page.getByRole('region', { name: 'Tool call read' }).textContent()).toContain(FILE_TEXT);
      expectCleanConsole(errors);
      await context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'a reload mid-run resumes the stream with nothing lost or repeated, a second tab follows the run live, a message goes into a running run, and cancel stops it',
    async () => {
      const first = await openPage(gateway?.url as string, '/ui/chat');
      const page = first.page;
      await sendMessage(page, 'SLOW-STORY please');
      await expect.poll(() => answerText(page, 'w001'), { timeout: 10_000 }).toContain('w010');
      const sessionPath = new URL(page.url()).pathname;
      // A second tab on the same session sees the run while it streams.
      const second = await openPage(gateway?.url as string, sessionPath);
      await expect.poll(() => answerText(second.page, 'w001'), { timeout: 10_000 }).toContain('w001');
      expect(await runStatus(second.page).textContent()).toBe('Running');
      // Reload in the middle of the text: the stream resumes after the last event this tab saw.
      expect(await runStatus(page).textContent()).toBe('Running');
      await page.reload();
      await expect.poll(() => runStatus(page).textContent(), { timeout: 20_000 }).toBe('Completed');
      expect(await answerText(page, 'w001')).toBe(SLOW_TEXT);
      await expect.poll(() => runStatus(second.page).textContent(), { timeout: 10_000 }).toBe('Completed');
      expect(await answerText(second.page, 'w001')).toBe(SLOW_TEXT);
      expectCleanConsole(second.errors);
      await second.context.close();

      // The next run: a message typed while it works is delivered to it, then it is cancelled.
      await sendMessage(page, 'CANCEL-ME now');
      await expect.poll(() => answerText(page, 'c001'), { timeout: 10_000 }).toContain('c003');
      const runningBox = page.getByRole('textbox', { name: 'Message to the running agent' });
      await runningBox.fill('also mention the weather');
      await page.getByRole('button', { name: 'Send to the run' }).click();
      await expect.poll(() => currentRun(page).getByText('also mention the weather').count()).toBe(1);
      await page.getByRole('button', { name: 'Cancel run' }).click();
      await expect.poll(() => runStatus(page).textContent(), { timeout: 10_000 }).toMatch(/^Cancelled/);
      expect(await answerText(page, 'c001')).not.toContain('c400');
      const box = page.getByRole('textbox', { name: 'Message', exact: true });
      expect(await box.isEditable()).toBe(true);
      expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
      // The earlier run is now history above the cancelled one, shown once.
      expect(await page.getByRole('region', { name: 'Conversation' }).getByText('SLOW-STORY please').count()).toBe(1);
      expectCleanConsole(first.errors);
      await first.context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'an ask rule shows a permission dialog in every tab; Allow reaches the run and closes the dialog in the other tab',
    async () => {
      const { context, page, errors } = await openPage(gateway?.url as string, '/ui/chat');
      await sendMessage(page, 'ASK-NOTES please');
      const dialog = page.getByRole('dialog', { name: 'Allow read?' });
      await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await dialog.textContent()).toContain('read(notes.md)');
      const other = await openPage(gateway?.url as string, new URL(page.url()).pathname);
      const otherDialog = other.page.getByRole('dialog', { name: 'Allow read?' });
      await expect.poll(() => otherDialog.isVisible(), { timeout: 10_000 }).toBe(true);
      // Focus is inside the dialog, on its first control.
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
      await checkPageInBothThemes(page, 'chat-question');
      await dialog.getByRole('button', { name: 'Allow' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(false);
      await expect.poll(() => runStatus(page).textContent(), { timeout: 15_000 }).toBe('Completed');
      const card = currentRun(page).getByRole('region', { name: 'Tool call read (done)' });
      expect(await card.textContent()).toContain(NOTES_TEXT);
      await expect.poll(() => otherDialog.isVisible(), { timeout: 10_000 }).toBe(false);
      expectCleanConsole(errors);
      expectCleanConsole(other.errors);
      await other.context.close();
      await context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});
