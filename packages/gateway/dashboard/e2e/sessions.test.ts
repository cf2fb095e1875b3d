import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetailJson, SessionJson } from '../../src/http/api-types/index.js';
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

const usage = { input: 20, output: 10 };
let gateway: DashboardGateway | undefined;

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(new URL(path, gateway?.url).href, init);
  expect(response.ok, `${path}: ${response.status}`).toBe(true);
  return (await response.json()) as T;
}

async function runIn(sessionId: string, input: string): Promise<void> {
  const run = await api<{ status: string }>(`/sessions/${sessionId}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input, mode: 'wait' }),
  });
  expect(run.status).toBe('completed');
}

beforeAll(async () => {
  if (!hasChromium) return;
  // The mock plays these steps in order across the three runs below (the sub-agent takes the fifth).
  gateway = await startDashboardGateway(
    {
      steps: [
        {
          content: [
            { type: 'thinking', thinking: 'They ask about Gaul.', signature: 'sig-1' },
            { type: 'text', text: 'Lutetia is the old name of **Paris**.' },
          ],
          usage,
        },
        { content: [{ type: 'tool_call', name: 'read', input: { file_path: 'notes.md' } }], usage },
        { text: 'The notes say hello.', usage },
        {
          content: [{ type: 'tool_call', name: 'agent', input: { description: 'look', prompt: 'Look around.' } }],
          usage,
        },
        { text: 'child answer', usage },
        { text: 'parent answer', usage },
      ],
    },
    { permissions: { allow: ['agent', 'read'] } },
  );
  await gateway.test.workspace.store.sessions.create({ id: 'placeholder', title: 'Empty one' });
  const { writeFile } = await import('node:fs/promises');
  await writeFile(`${gateway.test.workspace.paths.root}/notes.md`, 'hello');
  await runIn('gaul', 'What was Lutetia?');
  await runIn('notes', 'Read my notes.');
  await runIn('delegate', 'Delegate a look.');
}, 60_000);
afterAll(async () => {
  await closeBrowser();
  await gateway?.close();
});

describe.skipIf(!hasChromium)(`sessions pages in Chromium${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('a session is found by search, opened at the hit and forked at a message (the fork has the messages up to it)', async () => {
    const url = gateway?.url ?? '';
    const { context, page, errors } = await openPage(url, '/ui/sessions');
    const table = page.getByRole('table');
    await expect
      .poll(() => table.getByRole('link').allTextContents())
      .toEqual(expect.arrayContaining(['gaul', 'notes', 'delegate', 'look', 'Empty one']));
    await page.getByRole('searchbox', { name: 'Search the messages' }).fill('Lutetia');
    await page.getByRole('button', { name: 'Search' }).click();
    const hit = page.getByRole('link', { name: 'gaul · message 2 (assistant)' });
    await hit.waitFor();
    await expect.poll(() => page.locator('mark').first().textContent()).toBe('Lutetia');
    await checkPageInBothThemes(page, 'sessions-search');
    await hit.click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#message-2');
    const assistant = page.getByRole('article', { name: /Assistant #2/ });
    await assistant.waitFor();
    // Markdown is rendered, thinking is there but collapsed.
    expect(await assistant.locator('strong').textContent()).toBe('Paris');
    const thinking = assistant.getByText('Thinking', { exact: true });
    expect(await thinking.isVisible()).toBe(true);
    expect(await assistant.getByText('They ask about Gaul.').isVisible()).toBe(false);
    await checkPageInBothThemes(page, 'session');

    await page.getByRole('button', { name: 'Fork here (at message 1)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Fork at message 1' });
    await dialog.waitFor();
    await checkPageInBothThemes(page, 'session-fork-dialog');
    await dialog.getByRole('textbox', { name: 'Title of the fork' }).fill('Lutetia, asked again');
    await dialog.getByRole('button', { name: 'Create the fork' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lutetia, asked again' }).waitFor();
    const forkId = decodeURIComponent(new URL(page.url()).pathname.replace('/ui/sessions/', ''));
    expect(forkId).not.toBe('gaul');
    expect(await page.getByRole('article').count()).toBe(1);
    const fork = await api<SessionDetailJson>(`/sessions/${encodeURIComponent(forkId)}`);
    expect(fork.session).toMatchObject({ kind: 'fork', parentSessionId: 'gaul', forkedAtSeq: 1, messageCount: 1 });
    expect(fork.messages.map((entry) => entry.message.content)).toEqual(['What was Lutetia?']);
    expect(await page.getByRole('link', { name: 'Continue in chat' }).getAttribute('href')).toBe(
      `/ui/chat/${encodeURIComponent(forkId)}`,
    );
    expectCleanConsole(errors);
    await context.close();
  });

  it('a session is renamed, exported, deleted and imported again; a sub-agent transcript opens from its tool card', async () => {
    const url = gateway?.url ?? '';
    const { context, page, errors } = await openPage(url, '/ui/sessions/notes');
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    // A session the API made without a title is named by its id.
    await page.getByRole('heading', { level: 1, name: 'notes' }).waitFor();
    const card = page.getByRole('region', { name: 'Tool call read' });
    expect(await card.getByText('done', { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText(/hello/).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the session' });
    await rename.getByRole('textbox', { name: 'Title' }).fill('My notes, read');
    await rename.getByRole('button', { name: 'Save title' }).click();
    await page.getByRole('heading', { level: 1, name: 'My notes, read' }).waitFor();
    expect((await api<SessionDetailJson>('/sessions/notes')).session.title).toBe('My notes, read');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('notes.jsonl');
    const exportedPath = await download.path();
    const exported = await readFile(exportedPath, 'utf8');
    expect(exported.split('\n').filter(Boolean)).toHaveLength(5);

    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the session?' });
    await confirm.waitFor();
    await checkPageInBothThemes(page, 'session-delete-dialog');
    await confirm.getByRole('button', { name: 'Delete for good' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/ui/sessions');
    expect((await fetch(new URL('/sessions/notes', url).href)).status).toBe(404);

    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Import a session' }).click(),
    ]);
    await chooser.setFiles(exportedPath);
    await page.getByRole('heading', { level: 1, name: 'My notes, read' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/ui/sessions/notes');
    const imported = await api<{ sessions: SessionJson[] }>('/sessions');
    expect(imported.sessions.find((session) => session.id === 'notes')).toMatchObject({ messageCount: 4 });

    await page.goto(new URL('/ui/sessions/delegate', url).href);
    const agentCard = page.getByRole('region', { name: 'Tool call agent' });
    await agentCard.getByRole('link', { name: 'Open the sub-agent transcript' }).click();
    await page.getByRole('heading', { level: 1, name: 'look' }).waitFor();
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe('/ui/sessions/delegate/agent-1-1');
    expect(await page.getByText('Look around.').isVisible()).toBe(true);
    expect(await page.getByText('Sub-agent of delegate').isVisible()).toBe(true);
    expect(notFound).toEqual([]);
    expectCleanConsole(errors);
    await context.close();
  });
});
