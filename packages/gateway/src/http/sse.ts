import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { RunManager } from '../runs/run-manager.js';

/** The sequence number a client asks to resume after: `Last-Event-ID`, else `?after=`, else 0. */
export function resumeCursor(context: Context): number {
  const header = (context.req.header('last-event-id') ?? context.req.query('after') ?? '0').trim();
  // Only plain decimal sequence numbers: `0x10`, `1e3` or `-5` are not ids this server sent.
  if (!/^\d{1,15}$/.test(header)) return 0;
  return Number(header);
}

/**
 * Streams a run's events as Server-Sent Events: `id` is the event's sequence number (so
 * `Last-Event-ID` resumes exactly), `event` its type, `data` its JSON. A comment line every
 * `heartbeatMs` keeps proxies from cutting a quiet stream. The stream ends after `run-end`.
 */
export async function streamRunEvents(
  context: Context,
  runs: RunManager,
  runId: string,
  afterSeq: number,
  heartbeatMs: number,
) {
  await runs.get(runId);
  return streamSSE(context, async (stream) => {
    const controller = new AbortController();
    stream.onAbort(() => controller.abort());
    const heartbeat = setInterval(() => {
      void stream.write(': heartbeat\n\n').catch(() => controller.abort());
    }, heartbeatMs);
    try {
      for await (const event of runs.events(runId, afterSeq, controller.signal)) {
        await stream.writeSSE({ id: String(event.seq), event: event.type, data: JSON.stringify(event.data) });
      }
    } finally {
      clearInterval(heartbeat);
    }
  });
}
