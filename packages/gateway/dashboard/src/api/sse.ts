import { EventSourceParserStream } from 'eventsource-parser/stream';
import { errorOf, headersWithAuth } from './http';

/** One server-sent event of a run's stream. */
export interface StreamEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface StreamOptions {
  /** Resume after this event id (sent as the gateway's `Last-Event-ID`). */
  lastEventId?: string;
  signal: AbortSignal;
  onEvent: (event: StreamEvent) => void;
}

/**
 * Reads an event stream with fetch (EventSource cannot send the bearer token), resuming with
 * `Last-Event-ID`; eventsource-parser does the SSE framing. Resolves when the server ends the stream;
 * rejects with an ApiError on a refused request and with the fetch error when the connection drops
 * (the caller reconnects from the last id it saw).
 */
export async function readEventStream(path: string, options: StreamOptions): Promise<void> {
  const response = await fetch(path, {
    headers: headersWithAuth({
      accept: 'text/event-stream',
      ...(options.lastEventId === undefined ? {} : { 'last-event-id': options.lastEventId }),
    }),
    signal: options.signal,
  });
  if (!response.ok) throw await errorOf(response);
  if (response.body === null) return;
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    options.onEvent({ id: value.id, event: value.event ?? 'message', data: value.data });
  }
}
