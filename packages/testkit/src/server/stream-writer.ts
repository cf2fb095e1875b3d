import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WireEvent } from '../protocols/protocol.js';
import type { MockFault } from '../script/types.js';
import { type EventEncoder, regroup } from './framing.js';

/** Everything needed to put one streamed response on the wire. */
export interface StreamPlan {
  events: WireEvent[];
  encode: EventEncoder;
  /** The encoded keep-alive for stalls with pings; undefined where the protocol has none. */
  keepAlive: Uint8Array | undefined;
  fault: MockFault | undefined;
  /** The vendor's in-stream error event, for `mid_stream_error`, given how many events went before it. */
  errorEvent: (eventsSent: number) => WireEvent;
  writeBytes: number | undefined;
  delayMs: number;
}

/** What a stream fault leaves of the event list, and what happens after the last write. */
export function applyStreamFault(
  events: WireEvent[],
  fault: MockFault | undefined,
  errorEvent: (eventsSent: number) => WireEvent,
): { events: WireEvent[]; after: 'end' | 'stall' } {
  switch (fault?.kind) {
    case 'truncate':
      return { events: events.filter((event) => !event.terminal), after: 'end' };
    case 'mid_stream_error': {
      const open = events.filter((event) => !event.terminal);
      const cut = Math.min(fault.afterEvents ?? Math.ceil(open.length / 2), open.length);
      return { events: [...open.slice(0, cut), errorEvent(cut)], after: 'end' };
    }
    case 'stall':
      return { events: events.slice(0, fault.afterEvents ?? 0), after: 'stall' };
    default:
      return { events, after: 'end' };
  }
}

/** Resolves when the response's connection closes (client gone, or server shutting down). */
function closed(response: ServerResponse): Promise<void> {
  if (response.destroyed || response.socket?.destroyed) return Promise.resolve();
  return new Promise((resolve) => response.once('close', () => resolve()));
}

function write(response: ServerResponse, chunk: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed) return resolve();
    response.write(chunk, () => resolve());
  });
}

/**
 * Send bytes with the plan's pacing, then reset the connection after `afterBytes` (a `reset`
 * fault), hold it open (a stall, optionally with keep-alives), or end it.
 */
export async function writeBody(
  response: ServerResponse,
  writes: Uint8Array[],
  options: { fault: MockFault | undefined; delayMs: number; after: 'end' | 'stall'; keepAlive?: Uint8Array },
): Promise<void> {
  const { fault, delayMs } = options;
  const resetAt = fault?.kind === 'reset' ? fault.afterBytes : undefined;
  let sent = 0;
  for (const [index, chunk] of writes.entries()) {
    if (response.destroyed) return;
    if (index > 0 && delayMs > 0) await sleep(delayMs);
    if (resetAt !== undefined && sent + chunk.length >= resetAt) {
      await write(response, chunk.subarray(0, resetAt - sent));
      return reset(response);
    }
    await write(response, chunk);
    sent += chunk.length;
  }
  if (resetAt !== undefined) return reset(response);
  if (options.after === 'stall') return stall(response, fault, options.keepAlive);
  response.end();
}

/** Abort the TCP connection with a RST, after giving the client a moment to read what was sent. */
async function reset(response: ServerResponse): Promise<void> {
  await sleep(15);
  const socket = response.socket;
  if (socket && !socket.destroyed) socket.resetAndDestroy();
  else response.destroy();
}

/** Hold the connection open with nothing (or only keep-alives) until the other side goes away. */
async function stall(response: ServerResponse, fault: MockFault | undefined, keepAlive?: Uint8Array): Promise<void> {
  const interval = fault?.kind === 'stall' ? fault.pingIntervalMs : undefined;
  const timer =
    interval && keepAlive
      ? setInterval(() => {
          if (!response.destroyed) response.write(keepAlive);
        }, interval)
      : undefined;
  await closed(response);
  if (timer) clearInterval(timer);
}

/** Put a streamed response on the wire: fault applied, events framed, regrouped, paced. */
export async function writeStream(response: ServerResponse, plan: StreamPlan): Promise<void> {
  const { events, after } = applyStreamFault(plan.events, plan.fault, plan.errorEvent);
  const encoded = events.map(plan.encode);
  const writes = plan.writeBytes ? regroup(encoded, plan.writeBytes) : encoded;
  response.flushHeaders();
  await writeBody(response, writes, { fault: plan.fault, delayMs: plan.delayMs, after, keepAlive: plan.keepAlive });
}
