import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText, type ToolContext } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BashToolConfigError, createBashTool } from '../index.js';
import { withTickMonitor } from '../thread-pool/tick-monitor.test-helpers.js';

// Issue 12: nothing a command does may freeze the host. Each call runs while a host timer ticks
// every 20 ms; before the shell ran on a worker thread, these calls blocked the event loop for
// their whole run (27.7 s of awk against a 2 s timeout, with zero ticks).

let root: string;

function context(signal = new AbortController().signal): ToolContext {
  return { root, signal, sessionId: 's', turnId: 't', toolCallId: 'c' };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bash-freeze-'));
  await writeFile(join(root, 'as.txt'), 'a'.repeat(40_000));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// just-bash stops each awk loop after 100 000 iterations, so a nested pair of them (8.1e9 steps)
// is what runs for minutes.
const SPIN = 'BEGIN { for (i = 0; i < 90000; i++) for (j = 0; j < 90000; j++) s += j; print s }';

// The longest the host's event loop may stall: far below any of the deadlines below.
const MAX_GAP_MS = 1_000;

describe('simulated bash never blocks the host', () => {
  it.each([
    ['CPU-bound awk', `awk '${SPIN}'`],
    ['a sed loop over a 40 KB file', "sed ':a; s/a/b/; ta' as.txt | wc -c"],
    ['awk in a pipeline', `seq 1 3 | awk '${SPIN}' | sort`],
  ])('%s: stopped at its 2 s deadline while host timers keep firing', async (_name, command) => {
    const { value: result, report } = await withTickMonitor(() =>
      createBashTool().execute({ command, timeout: 2_000 }, context()),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'timed-out', timeoutMs: 2_000 });
    expect(resultText(result)).toContain('timed out after 2000 ms');
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    expect(report.elapsedMs).toBeLessThan(2_000 + MAX_GAP_MS * 4);
  });

  it('a command that allocates without bound ends at the memory cap; the host keeps ticking', async () => {
    const bash = createBashTool({ maxMemoryBytes: 32 * 1024 * 1024 });
    const command =
      'awk \'BEGIN { for (i = 0; i < 90000; i++) for (j = 0; j < 90000; j++) a[i "," j] = sprintf("%0100d", j) }\'';
    const { value: result, report } = await withTickMonitor(() =>
      bash.execute({ command, timeout: 120_000 }, context()),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'out-of-memory' });
    expect(resultText(result)).toContain('32 MiB');
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    const after = await bash.execute({ command: 'echo still here' }, context());
    expect(resultText(after)).toContain('still here');
  }, 120_000);

  it('a cancelled CPU-bound command stops soon after the abort, not at its deadline', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { value: result, report } = await withTickMonitor(() =>
      createBashTool().execute({ command: `awk '${SPIN}'`, timeout: 60_000 }, context(controller.signal)),
    );
    expect(result.metadata).toMatchObject({ outcome: 'aborted' });
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    expect(report.elapsedMs).toBeLessThan(30_000);
  });

  it('runs four runaway commands at once and answers a quick one after them', async () => {
    const bash = createBashTool();
    const { value: results, report } = await withTickMonitor(() =>
      Promise.all(
        Array.from({ length: 4 }, () => bash.execute({ command: `awk '${SPIN}'`, timeout: 1_500 }, context())),
      ),
    );
    for (const result of results) expect(result.metadata).toMatchObject({ outcome: 'timed-out' });
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    const quick = await bash.execute({ command: 'echo ok' }, context());
    expect(resultText(quick)).toBe('stdout:\nok\n\nexit code: 0');
  });
});

describe('bash start timeout', () => {
  it('a command no thread begins within startTimeoutMs ends with an error that says so, and the tool works after', async () => {
    // A heap cap no other test uses, so these calls have a pool of their own; every one of its
    // threads busy with a 2 s command, and one more command queued behind them.
    const settings = { maxMemoryBytes: 200 * 1024 * 1024 + 4096 };
    const threads = Math.max(2, availableParallelism());
    const busy = createBashTool(settings);
    const impatient = createBashTool({ ...settings, startTimeoutMs: 300 });
    const running = Array.from({ length: threads }, () =>
      busy.execute({ command: `awk '${SPIN}'`, timeout: 2_000 }, context()),
    );
    let busyEnded = false;
    const allBusy = Promise.all(running).then((results) => {
      busyEnded = true;
      return results;
    });
    const refused = await impatient.execute({ command: 'echo ok' }, context());
    expect(busyEnded).toBe(false);
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('No shell thread could begin the command within 0.3 s');
    expect(resultText(refused)).toContain('startTimeoutMs');
    expect(refused.metadata).toMatchObject({ outcome: 'busy' });
    for (const result of await allBusy) expect(result.metadata).toMatchObject({ outcome: 'timed-out' });
    expect(resultText(await impatient.execute({ command: 'echo ok' }, context()))).toBe('stdout:\nok\n\nexit code: 0');
  });

  it.each([0, -1, Number.NaN])('refuses startTimeoutMs %s', (value) => {
    expect(() => createBashTool({ startTimeoutMs: value })).toThrow(BashToolConfigError);
    expect(() => createBashTool({ startTimeoutMs: value })).toThrow(/startTimeoutMs/);
  });
});

describe('bash memory cap settings', () => {
  it.each([0, -5, Number.NaN])('refuses maxMemoryBytes %s', (value) => {
    expect(() => createBashTool({ maxMemoryBytes: value })).toThrow(BashToolConfigError);
    expect(() => createBashTool({ maxMemoryBytes: value })).toThrow(/maxMemoryBytes/);
  });
});
