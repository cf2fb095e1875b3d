import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from '../../src/test/run-bin.js';
import { closeBrowser, expectCleanConsole, hasChromium, openPage, SKIP_REASON } from './harness.js';

afterAll(closeBrowser);

describe.skipIf(!hasChromium)(`boxagnts serve${hasChromium ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  it('on a fresh workspace shows the dashboard at its root URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'boxagnts-serve-dashboard-'));
    try {
      expect((await runBin(['init', join(dir, 'ws')])).code).toBe(0);
      let servedChild: { kill(signal?: NodeJS.Signals): boolean } | undefined;
      let resolveUrl: (value: string) => void = () => {};
      const listening = new Promise<string>((resolve) => {
        resolveUrl = resolve;
      });
      const served = runBin(['serve', '--dir', join(dir, 'ws'), '-p', '0'], {
        onStdout: (text, child) => {
          servedChild = child;
          const match = /"url"\s*:\s*"([^"]+)"/.exec(text);
          if (match?.[1] !== undefined) resolveUrl(match[1]);
        },
      });
      const base = await Promise.race([
        listening,
        served.then((result): never => {
          throw new Error(`serve exited (${result.code}): ${result.stderr}`);
        }),
      ]);
      try {
        const { context, page, errors } = await openPage(base, '/');
        await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/ui/chat');
        await expect(page.getByRole('navigation', { name: 'Pages' }).getByRole('link').count()).resolves.toBe(8);
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/chat/i);
        expectCleanConsole(errors);
        await context.close();
      } finally {
        servedChild?.kill('SIGTERM');
        await served;
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
