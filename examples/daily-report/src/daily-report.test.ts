import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type DailyReport, startDailyReport } from './daily-report.js';

const sample = fileURLToPath(new URL('../sample', import.meta.url));
let running: DailyReport | undefined;
let dir: string | undefined;
afterEach(async () => {
  await running?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  running = undefined;
  dir = undefined;
});

function get(url: string): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port: target.port, path: target.pathname, setHost: false, headers: { host: target.host } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('daily-report example', () => {
  it('--now: the cron job runs the agent over the folder and the report is served as a site', async () => {
    dir = await mkdtemp(join(tmpdir(), 'boxagnts-daily-report-'));
    running = await startDailyReport({ dir, folder: sample, now: true, live: false, timezone: 'Europe/Berlin' });
    expect(running.fired).toMatchObject({ trigger: 'manual', status: 'success', outcome: 'end_turn' });
    expect(running.fired?.costUsd).toBeGreaterThan(0);
    const report = await readFile(running.reportPath, 'utf8');
    expect(report).toContain('3 files read.');
    expect(report).toContain('Staging certificate expires on 2026-12-09 (input/todo.md)');
    expect(report).toContain("review Sam's pull request on the retry logic. (input/notes/2026-12-01.md)");
    // The run read every file through the sandbox: the session holds each read's result.
    const messages = await running.gateway.workspace.store.sessions.load(running.fired?.sessionId as string);
    const results = JSON.stringify(messages.map((entry) => entry.message.content));
    expect(results).toContain('dropping the unused index');
    // Published at once on the sites origin.
    const served = await get(running.reportUrl as string);
    expect(served).toEqual({ status: 200, text: report });
    // And scheduled for every morning, in the job's zone.
    expect(running.cron.size).toBe(1);
    const [next] = await running.gateway.workspace.store.cron.nextRuns(running.job.id, 1);
    expect(next?.local).toMatch(/T07:00:00\+0[12]:00$/);
  }, 60_000);
});
