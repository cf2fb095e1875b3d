import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../protocols/protocol.js';
import { applyStreamFault } from './stream-writer.js';

const events: WireEvent[] = [
  { data: 'start' },
  { data: 'delta-1' },
  { data: 'delta-2' },
  { data: 'delta-3' },
  { data: 'stop', terminal: true },
  { data: '[DONE]', terminal: true },
];
const errorEvent = (): WireEvent => ({ event: 'error', data: 'boom' });
const payloads = (list: WireEvent[]) => list.map((event) => event.data);

describe('applyStreamFault', () => {
  it('leaves the stream whole without a stream fault', () => {
    expect(applyStreamFault(events, undefined, errorEvent)).toEqual({ events, after: 'end' });
    expect(applyStreamFault(events, { kind: 'reset', afterBytes: 5 }, errorEvent).events).toBe(events);
  });

  it('drops the terminal events on truncate', () => {
    const result = applyStreamFault(events, { kind: 'truncate' }, errorEvent);
    expect(payloads(result.events)).toEqual(['start', 'delta-1', 'delta-2', 'delta-3']);
    expect(result.after).toBe('end');
  });

  it('cuts the stream and appends the vendor error event on mid_stream_error', () => {
    const result = applyStreamFault(events, { kind: 'mid_stream_error', afterEvents: 2 }, errorEvent);
    expect(payloads(result.events)).toEqual(['start', 'delta-1', 'boom']);
    const defaulted = applyStreamFault(events, { kind: 'mid_stream_error' }, errorEvent);
    expect(payloads(defaulted.events)).toEqual(['start', 'delta-1', 'boom']);
  });

  it('sends only the first events and then stalls', () => {
    expect(applyStreamFault(events, { kind: 'stall' }, errorEvent)).toEqual({ events: [], after: 'stall' });
    const result = applyStreamFault(events, { kind: 'stall', afterEvents: 3 }, errorEvent);
    expect(payloads(result.events)).toEqual(['start', 'delta-1', 'delta-2']);
    expect(result.after).toBe('stall');
  });
});
