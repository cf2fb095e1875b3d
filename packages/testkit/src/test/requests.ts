import type { ProtocolId } from '../protocols/protocol.js';

/** A minimal generation request in one protocol: what a client of that vendor would send. */
export interface ProtocolRequest {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Build a one-message request for a protocol, streamed or not, for model `model`. */
export function requestFor(protocol: ProtocolId, stream: boolean, model = 'mock-model'): ProtocolRequest {
  const headers = { 'content-type': 'application/json' };
  const user = 'Say hello.';
  switch (protocol) {
    case 'anthropic':
      return {
        path: '/v1/messages',
        headers: { ...headers, 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' },
        body: { model, max_tokens: 256, stream, messages: [{ role: 'user', content: user }] },
      };
    case 'openai-chat':
      return {
        path: '/v1/chat/completions',
        headers: { ...headers, authorization: 'Bearer test-key' },
        body: {
          model,
          stream,
          ...(stream ? { stream_options: { include_usage: true } } : {}),
          messages: [{ role: 'user', content: user }],
        },
      };
    case 'openai-responses':
      return {
        path: '/v1/responses',
        headers: { ...headers, authorization: 'Bearer test-key' },
        body: { model, stream, input: user },
      };
    case 'gemini':
      return {
        path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { ...headers, 'x-goog-api-key': 'test-key' },
        body: { contents: [{ role: 'user', parts: [{ text: user }] }] },
      };
    case 'bedrock':
      return {
        path: `/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`,
        headers,
        body: { messages: [{ role: 'user', content: [{ text: user }] }] },
      };
    case 'cohere':
      return {
        path: '/v2/chat',
        headers: { ...headers, authorization: 'Bearer test-key' },
        body: { model, stream, messages: [{ role: 'user', content: user }] },
      };
    case 'ollama':
      return { path: '/api/chat', headers, body: { model, stream, messages: [{ role: 'user', content: user }] } };
  }
}
