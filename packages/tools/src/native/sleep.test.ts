import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { executeTool } from '../execute-tool.js';
import { testContext } from '../test/context.js';
import { resultText } from '../tool-results.js';
import { SLEEP_MAX_SECONDS, sleepTool } from './sleep.js';

describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the requested time, then answers', async () => {
    let done = false;
    const call = executeTool(sleepTool, { seconds: 2, reason: 'server start' }, testContext()).then((result) => {
      done = true;
      return result;
    });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await call;
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe('Slept 2 s.');
    expect(result.metadata).toEqual({ requestedMs: 2_000, sleptMs: 2_000, interrupted: false, reason: 'server start' });
  });

  it('accepts fractional seconds', async () => {
    const call = executeTool(sleepTool, { seconds: 1.5 }, testContext());
    await vi.advanceTimersByTimeAsync(1_500);
    expect(resultText(await call)).toBe('Slept 1.5 s.');
  });

  it.each([
    [0, /at least 1 second/],
    [0.5, /at least 1 second/],
    [-3, /at least 1 second/],
    [SLEEP_MAX_SECONDS + 1, /at most 300 seconds/],
  ])('refuses %s seconds with a message saying what is allowed', async (seconds, message) => {
    const result = await executeTool(sleepTool, { seconds }, testContext());
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(message);
  });

  it('refuses a missing or non-numeric duration', async () => {
    expect((await executeTool(sleepTool, {}, testContext())).isError).toBe(true);
    expect((await executeTool(sleepTool, { seconds: '5' }, testContext())).isError).toBe(true);
  });

  it('returns early on abort, saying how long it slept', async () => {
    const controller = new AbortController();
    const call = sleepTool.execute({ seconds: 10 }, testContext({ signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(3_000);
    controller.abort();
    const result = await call;
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe('Sleep interrupted after 3 s of 10 s: the call was aborted.');
    expect(result.metadata).toMatchObject({ interrupted: true, sleptMs: 3_000, requestedMs: 10_000 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not wait at all when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await sleepTool.execute({ seconds: 60 }, testContext({ signal: controller.signal }));
    expect(resultText(result)).toBe('Sleep interrupted after 0 s of 60 s: the call was aborted.');
  });

  it('ends promptly through executeTool when the run is cancelled', async () => {
    const controller = new AbortController();
    const call = executeTool(sleepTool, { seconds: 300 }, testContext({ signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('cancelled');
    expect(vi.getTimerCount()).toBe(0);
  });
});
