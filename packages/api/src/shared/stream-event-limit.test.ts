import { describe, expect, it } from 'vitest';
import { isStreamEventTooLargeError } from '../spec/stream-protocol-errors.js';
import { createNdjsonParser } from './ndjson-parser.js';
import { createSseParser } from './sse-parser.js';
import { DEFAULT_MAX_STREAM_EVENT_LENGTH, resolveMaxEventLength } from './stream-event-limit.js';

function thrownBy(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('SSE parser caps', () => {
  it('refuses a line that never ends, fed in small pieces, once it passes the cap', () => {
    const events: string[] = [];
    const parser = createSseParser(
      { onEvent: (event) => events.push(event.data) },
      { maxEventLength: 1000, providerId: 'p' },
    );
    let error: unknown;
    for (let piece = 0; piece < 100 && error === undefined; piece += 1) {
      error = thrownBy(() => parser.feed(piece === 0 ? 'data: ' : 'x'.repeat(50)));
    }
    expect(isStreamEventTooLargeError(error)).toBe(true);
    expect(error).toMatchObject({ unit: 'SSE line', limitBytes: 1000, providerId: 'p', isRetryable: false });
    // Nothing after the failure is read.
    parser.feed('\n\ndata: later\n\n');
    parser.end();
    expect(events).toEqual([]);
  });

  it('refuses one event made of many short data lines past the cap', () => {
    const parser = createSseParser({ onEvent: () => undefined }, { maxEventLength: 1000 });
    const error = thrownBy(() => parser.feed('data: 0123456789\n'.repeat(200)));
    expect(error).toMatchObject({ unit: 'SSE event' });
  });

  it('refuses a long line inside one chunk and with carriage returns', () => {
    const parser = createSseParser({ onEvent: () => undefined }, { maxEventLength: 100 });
    expect(thrownBy(() => parser.feed(`data: ${'y'.repeat(200)}\r\n\r\n`))).toMatchObject({ unit: 'SSE line' });
  });

  it('passes events up to the cap unchanged', () => {
    const events: string[] = [];
    const parser = createSseParser({ onEvent: (event) => events.push(event.data) }, { maxEventLength: 1000 });
    parser.feed(`data: ${'z'.repeat(990)}\n\n`);
    parser.end();
    expect(events).toEqual(['z'.repeat(990)]);
  });
});

describe('NDJSON parser caps', () => {
  it('refuses a line past the cap, split or whole', () => {
    const split = createNdjsonParser({ onValue: () => undefined }, { maxEventLength: 100 });
    split.feed('{"a":"');
    expect(thrownBy(() => split.feed('b'.repeat(200)))).toMatchObject({ unit: 'NDJSON line' });
    const whole = createNdjsonParser({ onValue: () => undefined }, { maxEventLength: 100 });
    expect(thrownBy(() => whole.feed(`{"a":"${'b'.repeat(200)}"}\n`))).toMatchObject({ unit: 'NDJSON line' });
  });
});

describe('resolveMaxEventLength', () => {
  it('defaults to 32 MiB and refuses values that are not positive integers', () => {
    expect(resolveMaxEventLength(undefined)).toBe(DEFAULT_MAX_STREAM_EVENT_LENGTH);
    expect(DEFAULT_MAX_STREAM_EVENT_LENGTH).toBe(33_554_432);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolveMaxEventLength({ maxEventLength: bad })).toThrow(/positive integer/);
    }
  });
});
