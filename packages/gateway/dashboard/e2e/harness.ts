import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockScript } from '@boxagnts/testkit';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { type GatewayOptions, type RunningGateway, startGateway } from '../../src/gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../../src/test/test-workspace.js';

/** Debian's chromium (`apt-get install chromium`); the suite reports itself skipped where it is absent. */
export const CHROMIUM = process.env.BOXAGNTS_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const SKIP_REASON = `no Chromium at ${CHROMIUM} (install Debian's chromium: apt-get install chromium)`;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
/** Screenshots of every page, kept as CI artifacts (not committed). */
export const ARTIFACTS = join(repoRoot, 'test-artifacts', 'dashboard');

/** The launch flags of this machine kind: headless, no sandbox (root), no background traffic. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let browser: Browser | undefined;
/** One browser per test file (each test gets a fresh context: its own storage, cookies and a fresh profile). */
export async function sharedBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

/** A gateway on loopback whose model is the testkit mock playing `script`, with the dashboard built. */
export interface DashboardGateway {
  url: string;
  gateway: RunningGateway;
  test: TestWorkspace;
  close(): Promise<void>;
}

export async function startDashboardGateway(
  script: MockScript,
  config: Record<string, unknown> = {},
  options: Partial<GatewayOptions> = {},
): Promise<DashboardGateway> {
  const test = await createTestWorkspace(script, config);
  const gateway = await startGateway({
    workspace: test.workspace,
    port: 0,
    sandbox: { bash: false, jsExec: false },
    dashboard: { folder: inject('dashboardFolder') },
    ...options,
  });
  return {
    url: gateway.url,
    gateway,
    test,
    async close() {
      await gateway.close();
      await test.close();
    },
  };
}

/** A fresh browser context and page; console errors and CSP violations are collected and fail {@link expectCleanConsole}. */
export async function openPage(
  base: string,
  path = '/ui/',
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await (await sharedBrowser()).newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(new URL(path, base).href);
  return { context, page, errors };
}

/** Fails on any page error or console error the test did not expect (CSP violations are console errors). */
export function expectCleanConsole(errors: readonly string[], allowed: readonly RegExp[] = []): void {
  expect(errors.filter((text) => !allowed.some((pattern) => pattern.test(text)))).toEqual([]);
}

/**
 * Runs axe-core on the page (WCAG 2.1 A and AA rules) and fails with the violations' ids, targets and
 * help text. The script is evaluated through the DevTools protocol, so the page's CSP stays in force.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; help: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
  });
  expect(violations, `accessibility violations on ${label}`).toEqual([]);
}

/** Saves a full-page screenshot as `test-artifacts/dashboard/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Checks a page in both themes: accessible in light and dark, a screenshot of each. */
export async function checkPageInBothThemes(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => {
      localStorage.setItem('boxagnts.theme', value);
      document.documentElement.dataset.theme = value;
    }, theme);
    await expectAccessible(page, `${name} (${theme})`);
    await screenshot(page, `${name}-${theme}`);
  }
}
