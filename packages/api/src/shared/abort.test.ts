import { describe, expect, it } from 'vitest';
import { isAbortedError } from '../spec/llm-error-classes.js';
import { abortableSleep, linkAbortController } from './abort.js';

describe('linkAbortController', () => {
  it('aborts the child with the parent reason, and not after dispose', () => {
    const parent = new AbortController();
    const linked = linkAbortController(parent.signal);
    parent.abort('stop');
    expect(linked.controller.signal.aborted).toBe(true);
    expect(linked.controller.signal.reason).toBe('stop');

    const other = new AbortController();
    const detached = linkAbortController(other.signal);
    detached.dispose();
    other.abort();
    expect(detached.controller.signal.aborted).toBe(false);
  });

  it('starts aborted when the parent already is, and aborting the child leaves the parent alone', () => {
    expect(linkAbortController(AbortSignal.abort()).controller.signal.aborted).toBe(true);
    const parent = new AbortController();
    linkAbortController(parent.signal).controller.abort();
    expect(parent.signal.aborted).toBe(false);
  });
});

describe('abortableSleep', () => {
  it('resolves after the delay', async () => {
    const started = Date.now();
    await abortableSleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('rejects with an AbortedError as soon as the signal aborts, or at once if it already has', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = abortableSleep(60_000, controller.signal);
    setTimeout(() => controller.abort(), 5);
    const error = await sleeping.catch((thrown: unknown) => thrown);
    expect(isAbortedError(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(abortableSleep(60_000, AbortSignal.abort())).rejects.toMatchObject({ reason: 'aborted' });
  });
});
