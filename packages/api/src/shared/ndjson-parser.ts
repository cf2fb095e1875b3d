import { resolveMaxEventLength, type StreamEventLimitOptions, streamEventTooLarge } from './stream-event-limit.js';

/** Callbacks of {@link createNdjsonParser}. */
export interface NdjsonParserCallbacks {
  onValue(value: unknown): void;
  /** A non-blank line that is not valid JSON; the parser goes on with the next line. */
  onInvalidLine?(line: string, error: unknown): void;
}

/** A push parser: feed network chunks in order, then call `end()`. */
export interface NdjsonParser {
  feed(chunk: Uint8Array | string): void;
  /** Flushes the decoder and parses a final line that had no trailing newline. */
  end(): void;
}

/**
 * Creates a newline-delimited JSON parser (Ollama's and some gateways' streaming format): one JSON
 * value per line, `\r\n` or `\n` endings, blank lines skipped, chunks split anywhere. A line may
 * hold at most `maxEventLength` characters (default 32 MiB): past it `feed` / `end` throw a
 * `StreamEventTooLargeError` before buffering more, and the parser ignores everything after.
 *
 * @example
 * const parser = createNdjsonParser({ onValue: (value) => chunks.push(value) });
 * for await (const chunk of response.body) parser.feed(chunk);
 * parser.end();
 */
export function createNdjsonParser(callbacks: NdjsonParserCallbacks, options?: StreamEventLimitOptions): NdjsonParser {
  const decoder = new TextDecoder('utf-8');
  const maxLength = resolveMaxEventLength(options);
  let partialLine = '';
  let failed = false;
  const tooLarge = (): never => {
    failed = true;
    partialLine = '';
    throw streamEventTooLarge('NDJSON line', maxLength, options?.providerId);
  };

  function processLine(rawLine: string): void {
    const line = rawLine.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      callbacks.onInvalidLine?.(line, error);
      return;
    }
    callbacks.onValue(value);
  }

  function processText(text: string): void {
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const piece = text.slice(start, newline);
      if (partialLine.length + piece.length > maxLength) tooLarge();
      const line = partialLine === '' ? piece : partialLine + piece;
      partialLine = '';
      processLine(line);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    if (start < text.length) {
      if (partialLine.length + text.length - start > maxLength) tooLarge();
      partialLine += text.slice(start);
    }
  }

  return {
    feed(chunk) {
      if (failed) return;
      processText(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      if (failed) return;
      processText(decoder.decode());
      const last = partialLine;
      partialLine = '';
      processLine(last);
    },
  };
}
