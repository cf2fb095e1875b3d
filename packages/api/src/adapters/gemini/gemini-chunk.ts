import type { BatchSource } from '../../shared/batch-source.js';
import { decodeSseStream } from '../../shared/decode-sse-stream.js';
import { isObject, isOptionalNumber, isOptionalString } from '../../shared/type-guards.js';
import { NetworkError } from '../../spec/llm-error-classes.js';
import type { GeminiResponseMapper } from './gemini-stream.js';
import { type GeminiResponse, geminiResponseSchema } from './gemini-wire.js';

/**
 * One chunk or body as JSON, then as a {@link GeminiResponse}; anything else means the response was
 * cut or garbled in transit (a `NetworkError`, so a stream that showed nothing yet is retried).
 */
export function parseGeminiChunk(text: string, providerId: string): GeminiResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw notJson(text, providerId);
  }
  return toGeminiResponse(json, providerId);
}

/**
 * Checks a parsed chunk. The hot shapes (text and thought parts, usage, finish reason) are checked
 * with plain `typeof` tests, which accept exactly what the lenient schema accepts for them; anything
 * else (function calls, errors, prompt feedback, a field of an unexpected type) goes through zod, so
 * rare and odd input is handled and reported exactly as the schema says. The fast path matters:
 * zod costs more per chunk than `JSON.parse` on a token stream.
 */
function toGeminiResponse(json: unknown, providerId: string): GeminiResponse {
  const value = Array.isArray(json) ? json[0] : json;
  if (isPlainTextResponse(value)) return value;
  const parsed = geminiResponseSchema.safeParse(value);
  if (!parsed.success) {
    throw new NetworkError({
      providerId,
      message: `Provider "${providerId}" sent a response of an unexpected shape: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
    });
  }
  return parsed.data;
}

function notJson(text: string, providerId: string): NetworkError {
  return new NetworkError({
    providerId,
    message: `Provider "${providerId}" sent a response that is not complete JSON (${text.length} characters, starting ${JSON.stringify(text.slice(0, 80))}); the connection was probably cut.`,
  });
}

/**
 * Reads a `streamGenerateContent?alt=sse` body into stream events with the shared SSE read loop (one
 * batch per network chunk; a comment, blank data or a chunk with nothing to show restarts the stall
 * timers). Reads the body to its end even after the final chunk, so the keep-alive connection is
 * reused; only after an `{error}` chunk does it stop (the caller drops the connection then anyway). A
 * chunk that is not valid JSON or not of the response shape throws, after the events of the chunks
 * before it were yielded.
 */
export function readGeminiStream(
  body: AsyncIterable<Uint8Array>,
  mapper: GeminiResponseMapper,
  providerId: string,
): BatchSource {
  return decodeSseStream(body, {
    event: (_type, data, out) => {
      if (mapper.failed) return;
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        // Blank data (JSON.parse skips surrounding whitespace itself, so trimming is only needed here).
        if (data.trim() === '') return;
        throw notJson(data, providerId);
      }
      mapper.push(toGeminiResponse(json, providerId), out);
    },
    end: (out) => mapper.end(true, out),
    stopped: () => mapper.failed,
  });
}

/** A response without `error`, `promptFeedback` or function calls whose known fields all have their schema type. */
function isPlainTextResponse(value: unknown): value is GeminiResponse {
  if (!isObject(value) || value.error !== undefined || value.promptFeedback !== undefined) return false;
  if (!isOptionalString(value.modelVersion) || !isOptionalString(value.responseId)) return false;
  const usage = value.usageMetadata;
  if (usage !== undefined && !isUsage(usage)) return false;
  const candidates = value.candidates;
  if (candidates === undefined) return true;
  if (!Array.isArray(candidates)) return false;
  for (const candidate of candidates) if (!isPlainCandidate(candidate)) return false;
  return true;
}

function isUsage(value: unknown): boolean {
  return (
    isObject(value) &&
    isOptionalNumber(value.promptTokenCount) &&
    isOptionalNumber(value.cachedContentTokenCount) &&
    isOptionalNumber(value.candidatesTokenCount) &&
    isOptionalNumber(value.toolUsePromptTokenCount) &&
    isOptionalNumber(value.thoughtsTokenCount) &&
    isOptionalNumber(value.totalTokenCount)
  );
}

function isPlainCandidate(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (!isOptionalString(value.finishReason) || !isOptionalString(value.finishMessage)) return false;
  if (!isOptionalNumber(value.index)) return false;
  const content = value.content;
  if (content === undefined) return true;
  if (!isObject(content) || !isOptionalString(content.role)) return false;
  const parts = content.parts;
  if (parts === undefined) return true;
  if (!Array.isArray(parts)) return false;
  for (const part of parts) {
    if (!isObject(part) || part.functionCall !== undefined) return false;
    if (!isOptionalString(part.text) || !isOptionalString(part.thoughtSignature)) return false;
    if (part.thought !== undefined && typeof part.thought !== 'boolean') return false;
  }
  return true;
}
