import { availableParallelism } from 'node:os';
import { resultText, type ToolContext } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { createJsExecTool, JsExecConfigError } from '../index.js';
import { withTickMonitor } from '../thread-pool/tick-monitor.test-helpers.js';

// Issue 12: js_exec evaluated on the host's thread, blocking its event loop for the whole
// evaluation (up to 10 s by default). Each call here runs while a host timer ticks every 20 ms.

function context(signal = new AbortController().signal): ToolContext {
  return { root: process.cwd(), signal, sessionId: 's', turnId: 't', toolCallId: 'c' };
}

const MAX_GAP_MS = 1_000;

describe('js_exec never blocks the host', () => {
  it('a CPU-bound loop ends at its deadline while host timers keep firing', async () => {
    const tool = createJsExecTool({ timeoutMs: 3_000 });
    const { value: result, report } = await withTickMonitor(() =>
      tool.execute({ code: 'let x = 0; for (;;) x++;' }, context()),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'timed-out' });
    expect(resultText(result)).toContain('longer than 3000 ms');
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    expect(report.elapsedMs).toBeLessThan(3_000 + MAX_GAP_MS * 4);
  });

  it('a backtracking regular expression ends at its deadline while host timers keep firing', async () => {
    const tool = createJsExecTool({ timeoutMs: 2_000 });
    const { value: result, report } = await withTickMonitor(() =>
      tool.execute({ code: "/^(a|a)*$/.test('a'.repeat(40) + '!')" }, context()),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'timed-out' });
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
  });

  it('a memory bomb ends as out of memory while host timers keep firing', async () => {
    const tool = createJsExecTool({ timeoutMs: 20_000, memoryLimitBytes: 32 * 1024 * 1024 });
    const { value: result, report } = await withTickMonitor(() =>
      tool.execute(
        { code: 'const xs = []; for (;;) xs.push({ a: [1, 2, 3], s: "x".repeat(100) + xs.length });' },
        context(),
      ),
    );
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ outcome: 'out-of-memory' });
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    const after = await tool.execute({ code: '1 + 1' }, context());
    expect(resultText(after)).toBe('result: 2');
  });

  it('an abort stops a synchronous loop long before its deadline', async () => {
    const tool = createJsExecTool({ timeoutMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { value: result, report } = await withTickMonitor(() =>
      tool.execute({ code: 'for (;;) {}' }, context(controller.signal)),
    );
    expect(result.metadata).toMatchObject({ outcome: 'aborted' });
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
    expect(report.elapsedMs).toBeLessThan(30_000);
    const after = await tool.execute({ code: '"fine"' }, context());
    expect(resultText(after)).toBe('result: fine');
  });

  it('runs several calls at once without one blocking the others', async () => {
    const tool = createJsExecTool({ timeoutMs: 1_500 });
    const { value: results, report } = await withTickMonitor(() =>
      Promise.all([
        tool.execute({ code: 'for (;;) {}' }, context()),
        tool.execute({ code: 'for (;;) {}' }, context()),
        tool.execute({ code: '[1, 2, 3].map((n) => n * 2)' }, context()),
      ]),
    );
    expect(results[0]?.metadata).toMatchObject({ outcome: 'timed-out' });
    expect(results[1]?.metadata).toMatchObject({ outcome: 'timed-out' });
    expect(resultText(results[2]!)).toBe('result: [2, 4, 6]');
    expect(report.longestGapMs).toBeLessThan(MAX_GAP_MS);
  });

  it('gives a call queued behind busy threads its whole time limit', async () => {
    // More calls than threads, each running 900 ms of its 1 s limit: the last ones wait for a
    // thread first, and that wait is not their run time (it was, and they ended as timed out).
    const tool = createJsExecTool({ timeoutMs: 1_000 });
    const calls = Math.max(2, availableParallelism()) + 1;
    const code = 'const until = Date.now() + 900; let n = 0; while (Date.now() < until) n++; "done"';
    const results = await Promise.all(Array.from({ length: calls }, () => tool.execute({ code }, context())));
    expect(results.map((result) => resultText(result))).toEqual(Array.from({ length: calls }, () => 'result: done'));
  });

  it('a call no thread begins within startTimeoutMs ends with an error that says so, and the tool works after', async () => {
    // Every thread busy with a 2 s loop; a call queued behind them with a 300 ms start timeout
    // must not wait the default 60 s for one.
    const threads = Math.max(2, availableParallelism());
    const busy = createJsExecTool({ timeoutMs: 2_000 });
    const impatient = createJsExecTool({ startTimeoutMs: 300 });
    const running = Array.from({ length: threads }, () => busy.execute({ code: 'for (;;) {}' }, context()));
    let busyEnded = false;
    const allBusy = Promise.all(running).then((results) => {
      busyEnded = true;
      return results;
    });
    const refused = await impatient.execute({ code: '1 + 1' }, context());
    expect(busyEnded).toBe(false);
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toContain('no JavaScript thread could begin the call within 0.3 s');
    expect(resultText(refused)).toContain('startTimeoutMs');
    expect(refused.metadata).toMatchObject({ outcome: 'busy' });
    for (const result of await allBusy) expect(result.metadata).toMatchObject({ outcome: 'timed-out' });
    expect(resultText(await impatient.execute({ code: '1 + 1' }, context()))).toBe('result: 2');
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses startTimeoutMs %s', (value) => {
    expect(() => createJsExecTool({ startTimeoutMs: value })).toThrow(JsExecConfigError);
    expect(() => createJsExecTool({ startTimeoutMs: value })).toThrow(/startTimeoutMs/);
  });

  it('serves tools with many different limits from the shared threads, again and again', async () => {
    const tools = Array.from({ length: 7 }, (_, index) =>
      createJsExecTool({ timeoutMs: 5_000 + index, memoryLimitBytes: (16 + index) * 1024 * 1024 }),
    );
    for (let round = 0; round < 3; round++) {
      for (const [index, each] of tools.entries()) {
        expect(resultText(await each.execute({ code: `${index} * ${round}` }, context()))).toBe(
          `result: ${index * round}`,
        );
      }
    }
  });
});
