/** One dispatched server-sent event. */
export interface SseEvent {
  /** The `event:` field, or `message` when the event named none. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last event id seen on the stream so far (ids persist across events, per the SSE spec). */
  id: string | undefined;
  /** The `retry:` value of this event in milliseconds, when it had a valid one. */
  retry: number | undefined;
}

/** Callbacks of {@link createSseParser}. */
export interface SseParserCallbacks {
  onEvent(event: SseEvent): void;
  /** A `:` comment line (text after the colon, one leading space removed); keep-alives show up here. */
  onComment?(comment: string): void;
}

/** A push parser: feed network chunks in order, then call `end()`. */
export interface SseParser {
  feed(chunk: Uint8Array | string): void;
  /** Flushes the decoder; an event whose data lines were complete but lacked the final blank line is dispatched. */
  end(): void;
}

import { resolveMaxEventLength, type StreamEventLimitOptions, streamEventTooLarge } from './stream-event-limit.js';

const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;
const DATA_FIRST = 100; // 'd'
const EVENT_FIRST = 101; // 'e'

/**
 * What {@link createSseScanner} calls: an event's fields as arguments (no object per event), and
 * the text of a `:` comment line.
 */
export interface SseScannerCallbacks {
  /** One dispatched event: its type (`message` when it named none), joined data, last id and retry. */
  event(type: string, data: string, id: string | undefined, retry: number | undefined): void;
  comment?(comment: string): void;
}

/**
 * Creates a one-pass server-sent events parser (WHATWG `text/event-stream` rules): `\r\n`, `\r`
 * and `\n` line ends, multi-line data, comments, a leading BOM, and chunks split anywhere, including
 * inside a line ending or a multi-byte UTF-8 character (bytes are decoded once per chunk by a
 * streaming `TextDecoder`).
 *
 * One line, and one event's joined data, may hold at most `maxEventLength` characters (default
 * `DEFAULT_MAX_STREAM_EVENT_LENGTH`, 32 MiB): past it `feed` / `end` throw a
 * `StreamEventTooLargeError` before buffering more, and the parser ignores everything after.
 *
 * @example
 * const parser = createSseParser({ onEvent: (event) => console.log(event.event, event.data) });
 * for await (const chunk of response.body) parser.feed(chunk);
 * parser.end();
 */
export function createSseParser(callbacks: SseParserCallbacks, options?: StreamEventLimitOptions): SseParser {
  const onComment = callbacks.onComment;
  return createSseScanner(
    {
      event: (event, data, id, retry) => callbacks.onEvent({ event, data, id, retry }),
      ...(onComment === undefined ? {} : { comment: (comment: string) => onComment(comment) }),
    },
    options,
  );
}

/**
 * The parser of {@link createSseParser} with the event's fields passed as arguments: what the
 * adapters' read loop (`decodeSseStream`) uses, so a token stream allocates no `SseEvent` and no
 * string per line (`event:` and `data:` values are cut straight out of the decoded chunk).
 */
export function createSseScanner(callbacks: SseScannerCallbacks, options?: StreamEventLimitOptions): SseParser {
  const decoder = new TextDecoder('utf-8');
  const maxLength = resolveMaxEventLength(options);
  let failed = false;
  const tooLarge = (unit: string): never => {
    failed = true;
    partialLine = '';
    data = '';
    hasData = false;
    throw streamEventTooLarge(unit, maxLength, options?.providerId);
  };
  let partialLine = '';
  let skipLineFeed = false;
  let atStart = true;
  let eventType = '';
  let data = '';
  let hasData = false;
  let lastEventId: string | undefined;
  let retry: number | undefined;

  function dispatch(): void {
    if (hasData) callbacks.event(eventType === '' ? 'message' : eventType, data, lastEventId, retry);
    eventType = '';
    data = '';
    hasData = false;
    retry = undefined;
  }

  function addData(value: string): void {
    if (hasData && data.length + value.length >= maxLength) tooLarge('SSE event');
    data = hasData ? `${data}\n${value}` : value;
    hasData = true;
  }

  /**
   * The line `text[start, end)` (no line end inside), read in place: the fast path for the lines
   * nearly every event is made of (`data:`, `event:`, the blank line), with no string for the line.
   */
  function processRange(text: string, start: number, end: number): void {
    if (end - start > maxLength) tooLarge('SSE line');
    if (end === start) {
      dispatch();
      return;
    }
    const first = text.charCodeAt(start);
    if (first === DATA_FIRST && text.startsWith('data:', start)) {
      addData(text.slice(text.charCodeAt(start + 5) === 32 && start + 5 < end ? start + 6 : start + 5, end));
      return;
    }
    // Named events (Anthropic, OpenAI Responses) put an `event:` line before every `data:` line.
    if (first === EVENT_FIRST && text.startsWith('event:', start)) {
      eventType = text.slice(text.charCodeAt(start + 6) === 32 && start + 6 < end ? start + 7 : start + 6, end);
      return;
    }
    processLine(text.slice(start, end));
  }

  function processLine(line: string): void {
    if (line.length > maxLength) tooLarge('SSE line');
    if (line === '') {
      dispatch();
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) {
      callbacks.comment?.(line.charCodeAt(1) === 32 ? line.slice(2) : line.slice(1));
      return;
    }
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'event':
        eventType = value;
        break;
      case 'data':
        addData(value);
        break;
      case 'id':
        if (!value.includes('\0')) lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) retry = Number(value);
        break;
      default:
        break;
    }
  }

  function processText(text: string): void {
    let start = 0;
    if (atStart && text.length > 0) {
      atStart = false;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (skipLineFeed && start < text.length) {
      if (text.charCodeAt(start) === LINE_FEED) start += 1;
      skipLineFeed = false;
    }
    if (text.indexOf('\r', start) === -1) {
      // No carriage return in this chunk (the usual case): jump from line feed to line feed natively
      // instead of looking at every character, and read each whole line where it lies.
      let end = text.indexOf('\n', start);
      while (end !== -1) {
        if (partialLine === '') processRange(text, start, end);
        else {
          const line = partialLine + text.slice(start, end);
          partialLine = '';
          processLine(line);
        }
        start = end + 1;
        end = text.indexOf('\n', start);
      }
      if (start < text.length) keepPartial(text.slice(start));
      return;
    }
    let index = start;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code !== LINE_FEED && code !== CARRIAGE_RETURN) {
        index += 1;
        continue;
      }
      const line = partialLine === '' ? text.slice(start, index) : partialLine + text.slice(start, index);
      partialLine = '';
      processLine(line);
      index += 1;
      if (code === CARRIAGE_RETURN) {
        if (index === text.length) skipLineFeed = true;
        else if (text.charCodeAt(index) === LINE_FEED) index += 1;
      }
      start = index;
    }
    if (start < text.length) keepPartial(text.slice(start));
  }

  /** Holds the unfinished end of a line, refusing to hold more than the cap. */
  function keepPartial(piece: string): void {
    if (partialLine.length + piece.length > maxLength) tooLarge('SSE line');
    partialLine += piece;
  }

  return {
    feed(chunk) {
      if (failed) return;
      processText(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      if (failed) return;
      processText(decoder.decode());
      partialLine = '';
      dispatch();
    },
  };
}
