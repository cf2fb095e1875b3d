import type { BatchSource } from '../../shared/batch-source.js';
import { createChunkBatchSource } from '../../shared/chunk-batch-source.js';
import { createNdjsonParser } from '../../shared/ndjson-parser.js';
import type { ByteStream } from '../../shared/read-event-stream.js';
import { isObject, isOptionalNumber, isOptionalString } from '../../shared/type-guards.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import type { OllamaResponseMapper } from './ollama-stream.js';
import { type OllamaChatResponse, ollamaChatResponseSchema } from './ollama-wire.js';

/**
 * A parsed NDJSON line as an {@link OllamaChatResponse}, or `undefined` when it is not of that shape
 * (such a line is skipped, as a line that is not JSON is). Text and thinking lines, the common case,
 * are checked with plain `typeof` tests that accept exactly what the lenient schema accepts for them;
 * anything else (tool calls, errors, a field of an unexpected type) goes through zod. The fast path
 * matters: zod costs more per line than the `JSON.parse` before it on a token stream.
 */
export function toOllamaReply(value: unknown): OllamaChatResponse | undefined {
  if (isPlainReply(value)) return value;
  const parsed = ollamaChatResponseSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Reads a streamed `/api/chat` body (NDJSON) into stream events, one array per network chunk: the
 * bytes go through the shared NDJSON parser straight into the mapper, so the only async step per
 * network chunk is one batch, pushed from the body's `data` callback under `streamWithRetries`. A line that is not JSON,
 * or not of the reply shape, is skipped; a stream that then never says `done` still fails as cut.
 * Reads the body to its end even after the `done` line, so the keep-alive connection is reused; only
 * after an `{error}` line does it stop (the caller drops the connection then anyway).
 */
export function readOllamaStream(body: ByteStream, mapper: OllamaResponseMapper): BatchSource {
  return createChunkBatchSource(body, () => {
    let out: StreamEvent[] = [];
    const parser = createNdjsonParser({
      onValue(value) {
        const reply = toOllamaReply(value);
        if (reply !== undefined) mapper.push(reply, out);
      },
    });
    return {
      chunk(chunk, into) {
        out = into;
        parser.feed(chunk);
        // NDJSON has no keep-alive frames: a chunk without events is just part of a line.
        return false;
      },
      end(into) {
        out = into;
        parser.end();
        mapper.end(true, out);
      },
      stopped: () => mapper.failed,
    };
  });
}

/** A line without `error` or tool calls whose known fields all have their schema type. */
function isPlainReply(value: unknown): value is OllamaChatResponse {
  if (!isObject(value) || value.error !== undefined) return false;
  if (!isOptionalString(value.model) || !isOptionalString(value.created_at)) return false;
  if (value.done !== undefined && typeof value.done !== 'boolean') return false;
  if (!isOptionalString(value.done_reason)) return false;
  if (!isOptionalNumber(value.prompt_eval_count) || !isOptionalNumber(value.eval_count)) return false;
  const message = value.message;
  if (message === undefined) return true;
  return (
    isObject(message) &&
    message.tool_calls === undefined &&
    isOptionalString(message.role) &&
    isOptionalString(message.content) &&
    isOptionalString(message.thinking)
  );
}
