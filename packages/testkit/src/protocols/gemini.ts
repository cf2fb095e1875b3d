import { splitText } from './chunks.js';
import { geminiErrorBody, geminiErrorResponse } from './gemini-errors.js';
import { mapGeminiFinishReason } from './gemini-finish-reason.js';
import type { ParsedRequest, ProtocolRenderer, ResolvedBlock, ResolvedTurn, WireEvent } from './protocol.js';

/**
 * Google Gemini `generateContent` / `streamGenerateContent?alt=sse`, on the Gemini API
 * (`/v1beta/models/{m}:…`) and Vertex AI (`/v1/projects/{p}/locations/{l}/publishers/google/models/{m}:…`).
 *
 * @see https://ai.google.dev/api/generate-content
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/generateContent
 */

type GeminiPart = Record<string, unknown>;

const ROUTE = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * `functionCall.args` is a JSON object (a protobuf Struct). Valid argument text is parsed; malformed
 * text (the `malformed_tool_arguments` fault) is sent as a JSON string in place of the object, the
 * closest a broken server gets: clients that expect an object see a string they cannot parse.
 */
function functionArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function functionCallPart(block: Extract<ResolvedBlock, { type: 'tool_call' }>): GeminiPart {
  const call: Record<string, unknown> = {};
  if (block.id !== undefined) call.id = block.id;
  call.name = block.name;
  call.args = functionArgs(block.arguments);
  return { functionCall: call };
}

function thoughtPart(text: string, signature: string | undefined): GeminiPart {
  const part: GeminiPart = { text, thought: true };
  if (signature !== undefined) part.thoughtSignature = signature;
  return part;
}

/** Whole-response parts; Gemini has no redacted thinking, so those blocks are left out. */
function parts(content: ResolvedBlock[]): GeminiPart[] {
  const result: GeminiPart[] = [];
  for (const block of content) {
    if (block.type === 'text') result.push({ text: block.text });
    else if (block.type === 'thinking') result.push(thoughtPart(block.thinking, block.signature));
    else if (block.type === 'tool_call') result.push(functionCallPart(block));
  }
  return result;
}

/**
 * `usageMetadata`. Gemini's `promptTokenCount` counts every input token, as the neutral `input` does
 * (`cachedContentTokenCount` is the cached subset); its `candidatesTokenCount` leaves thoughts out,
 * where the neutral `output` includes them (`totalTokenCount` = prompt + candidates + thoughts).
 */
export function geminiUsage(usage: ResolvedTurn['usage']): Record<string, unknown> {
  const prompt = usage.input;
  const thoughts = Math.min(usage.reasoning, usage.output);
  const candidates = usage.output - thoughts;
  const metadata: Record<string, unknown> = {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
  };
  if (usage.cacheRead > 0) {
    metadata.cachedContentTokenCount = usage.cacheRead;
    metadata.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: usage.cacheRead }];
  }
  if (thoughts > 0) metadata.thoughtsTokenCount = thoughts;
  return metadata;
}

function finishReason(turn: ResolvedTurn): string {
  return turn.rawStopReason ?? mapGeminiFinishReason(turn.stopReason);
}

function chunk(turn: ResolvedTurn, part: GeminiPart, finish?: string): string {
  const candidate: Record<string, unknown> = { content: { parts: [part], role: 'model' } };
  if (finish !== undefined) candidate.finishReason = finish;
  candidate.index = 0;
  return JSON.stringify({
    candidates: [candidate],
    usageMetadata: geminiUsage(turn.usage),
    modelVersion: turn.model,
    responseId: turn.responseId,
  });
}

function apiVersion(request: ParsedRequest | undefined): string {
  const match = request ? /^\/(v1[a-z0-9]*)\//.exec(request.path) : null;
  return match?.[1] ?? 'v1beta';
}

function hasFinishReason(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null) return false;
  const candidates = (payload as { candidates?: unknown }).candidates;
  return (
    Array.isArray(candidates) &&
    candidates.some((candidate) => typeof candidate === 'object' && candidate !== null && 'finishReason' in candidate)
  );
}

/** The Gemini renderer. */
export const geminiProtocol: ProtocolRenderer = {
  id: 'gemini',
  framing: 'sse',
  streamContentType: 'text/event-stream',

  matchRoute(method, path) {
    if (method !== 'POST') return undefined;
    const match = ROUTE.exec(path);
    if (!match) return undefined;
    return { model: decodeSegment(match[1] ?? ''), stream: match[2] === 'streamGenerateContent' };
  },

  renderResponse(turn) {
    return {
      candidates: [
        { content: { parts: parts(turn.content), role: 'model' }, finishReason: finishReason(turn), index: 0 },
      ],
      usageMetadata: geminiUsage(turn.usage),
      modelVersion: turn.model,
      responseId: turn.responseId,
    };
  },

  renderStream(turn) {
    const events: WireEvent[] = [];
    for (const block of turn.content) {
      if (block.type === 'text') {
        for (const piece of splitText(block.text, turn.textDelta)) events.push({ data: chunk(turn, { text: piece }) });
      } else if (block.type === 'thinking') {
        const pieces = splitText(block.thinking, turn.textDelta);
        if (pieces.length === 0) pieces.push('');
        pieces.forEach((piece, index) => {
          const signature = index === pieces.length - 1 ? block.signature : undefined;
          events.push({ data: chunk(turn, thoughtPart(piece, signature)) });
        });
      } else if (block.type === 'tool_call') {
        // Gemini sends each function call whole, in one chunk.
        events.push({ data: chunk(turn, functionCallPart(block)) });
      }
    }
    // The closing chunk carries finishReason, as Gemini's own last chunk does.
    events.push({ data: chunk(turn, { text: '' }, finishReason(turn)), terminal: true });
    return events;
  },

  renderError(error, request) {
    return geminiErrorResponse(error, request?.model || 'gemini-model', apiVersion(request));
  },

  renderStreamError(error, request) {
    // Gemini reports an error after the stream started as a google.rpc error object in a data line.
    return { data: JSON.stringify(geminiErrorBody(error, request.model || 'gemini-model', apiVersion(request)).body) };
  },

  replayStream(lines) {
    return lines.map((line) => {
      let payload: unknown;
      try {
        payload = JSON.parse(line);
      } catch {
        payload = undefined;
      }
      return hasFinishReason(payload) ? { data: line, terminal: true } : { data: line };
    });
  },

  keepAlive() {
    return undefined;
  },

  responseHeaders() {
    return {};
  },
};
