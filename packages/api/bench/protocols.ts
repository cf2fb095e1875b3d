/**
 * The wire protocols the bench drives, and what a client sends for each: the route the mock server
 * recognises and a minimal streaming request body. Written out here (not imported from the testkit)
 * because the bench client must not load the server's code.
 */

/** A wire protocol, with the same ids as the testkit's. */
export type BenchProtocol =
  | 'anthropic'
  | 'openai-chat'
  | 'openai-responses'
  | 'gemini'
  | 'bedrock'
  | 'cohere'
  | 'ollama';

/** How a protocol frames its stream on the wire. */
export type Framing = 'sse' | 'ndjson' | 'aws-eventstream';

/** The framing of each protocol's streamed response. */
export const FRAMING: Readonly<Record<BenchProtocol, Framing>> = {
  anthropic: 'sse',
  'openai-chat': 'sse',
  'openai-responses': 'sse',
  gemini: 'sse',
  bedrock: 'aws-eventstream',
  cohere: 'sse',
  ollama: 'ndjson',
};

/** One streaming request on the wire: path (with query) and JSON body. */
export interface WireRequest {
  path: string;
  body: Record<string, unknown>;
}

const PROMPT = 'Write a long answer.';

/** The streaming request a plain HTTP client sends for `model` in `protocol`. */
export function wireRequest(protocol: BenchProtocol, model: string): WireRequest {
  const messages = [{ role: 'user', content: PROMPT }];
  switch (protocol) {
    case 'anthropic':
      return { path: '/v1/messages', body: { model, max_tokens: 4096, stream: true, messages } };
    case 'openai-chat':
      return { path: '/v1/chat/completions', body: { model, stream: true, messages } };
    case 'openai-responses':
      return { path: '/v1/responses', body: { model, stream: true, input: PROMPT } };
    case 'gemini':
      return {
        path: `/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`,
        body: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }] },
      };
    case 'bedrock':
      return {
        path: `/model/${encodeURIComponent(model)}/converse-stream`,
        body: { messages: [{ role: 'user', content: [{ text: PROMPT }] }] },
      };
    case 'cohere':
      return { path: '/v2/chat', body: { model, stream: true, messages } };
    case 'ollama':
      return { path: '/api/chat', body: { model, stream: true, messages } };
  }
}

/** The text a stream carries: visible answer and reasoning, each concatenated in order. */
export interface AssembledText {
  text: string;
  reasoning: string;
}

type JsonRecord = Record<string, unknown>;

function record(value: unknown): JsonRecord | undefined {
  return typeof value === 'object' && value !== null ? (value as JsonRecord) : undefined;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Adds the text of one parsed wire payload to `into`. The minimum any client has to do with an event
 * besides parsing it: find the delta and append it.
 */
export function collectText(protocol: BenchProtocol, payload: unknown, into: AssembledText, eventType = ''): void {
  const value = record(payload);
  if (value === undefined) return;
  switch (protocol) {
    case 'anthropic': {
      if (value.type !== 'content_block_delta') return;
      const delta = record(value.delta);
      if (delta?.type === 'text_delta') into.text += str(delta.text);
      else if (delta?.type === 'thinking_delta') into.reasoning += str(delta.thinking);
      return;
    }
    case 'openai-chat': {
      const choices = value.choices;
      if (!Array.isArray(choices)) return;
      const delta = record(record(choices[0])?.delta);
      if (delta === undefined) return;
      into.text += str(delta.content);
      into.reasoning += str(delta.reasoning_content ?? delta.reasoning);
      return;
    }
    case 'openai-responses': {
      if (value.type === 'response.output_text.delta') into.text += str(value.delta);
      else if (value.type === 'response.reasoning_text.delta' || value.type === 'response.reasoning_summary_text.delta')
        into.reasoning += str(value.delta);
      return;
    }
    case 'gemini': {
      const candidates = value.candidates;
      if (!Array.isArray(candidates)) return;
      const parts = record(record(candidates[0])?.content)?.parts;
      if (!Array.isArray(parts)) return;
      for (const part of parts) {
        const entry = record(part);
        if (entry === undefined) continue;
        if (entry.thought === true) into.reasoning += str(entry.text);
        else into.text += str(entry.text);
      }
      return;
    }
    case 'bedrock': {
      if (eventType !== 'contentBlockDelta') return;
      const delta = record(value.delta);
      if (delta === undefined) return;
      into.text += str(delta.text);
      into.reasoning += str(record(delta.reasoningContent)?.text);
      return;
    }
    case 'cohere': {
      if (value.type !== 'content-delta') return;
      const content = record(record(record(value.delta)?.message)?.content);
      into.text += str(content?.text);
      into.reasoning += str(content?.thinking);
      return;
    }
    case 'ollama': {
      const message = record(value.message);
      into.text += str(message?.content);
      into.reasoning += str(message?.thinking);
      return;
    }
  }
}
