import { anthropicProtocol } from './anthropic.js';
import { bedrockFrame, bedrockProtocol } from './bedrock.js';
import { cohereProtocol } from './cohere.js';
import { geminiProtocol } from './gemini.js';
import { ollamaProtocol } from './ollama.js';
import { openaiChatProtocol } from './openai-chat.js';
import { openaiResponsesProtocol } from './openai-responses.js';
import type { ProtocolId, ProtocolRenderer, RouteMatch, WireEvent } from './protocol.js';

/** Every protocol renderer by id. */
export const RENDERERS: Record<ProtocolId, ProtocolRenderer> = {
  anthropic: anthropicProtocol,
  'openai-chat': openaiChatProtocol,
  'openai-responses': openaiResponsesProtocol,
  gemini: geminiProtocol,
  bedrock: bedrockProtocol,
  cohere: cohereProtocol,
  ollama: ollamaProtocol,
};

/**
 * Routing order: the most specific suffixes first, so `/v1/chat/completions` is never taken for
 * Ollama's `/api/chat` and Bedrock's `/converse` is tried before generic routes.
 */
const ROUTING_ORDER: ProtocolRenderer[] = [
  bedrockProtocol,
  geminiProtocol,
  anthropicProtocol,
  openaiChatProtocol,
  openaiResponsesProtocol,
  cohereProtocol,
  ollamaProtocol,
];

/** The protocol that owns a request's route, with what the route says about it. */
export function protocolFor(
  method: string,
  path: string,
  body: unknown,
): { renderer: ProtocolRenderer; match: RouteMatch } | undefined {
  for (const renderer of ROUTING_ORDER) {
    const match = renderer.matchRoute(method, path, body);
    if (match) return { renderer, match };
  }
  return undefined;
}

/** Bedrock's binary event-stream framing of one wire event. */
export function awsFrame(event: WireEvent): Uint8Array {
  return bedrockFrame(event);
}
