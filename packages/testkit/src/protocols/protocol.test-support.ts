// Test-only helpers for the protocol renderer tests: the shared scaffolding (turns, parsed requests,
// JSON walking) and, per protocol, an adapter saying how to call that renderer and how to read its
// wire output into a neutral form for the cross-protocol cases in protocol-contract.test.ts.
import type { MockErrorKind, MockStopReason } from '../script/types.js';
import { anthropicProtocol, anthropicStopReason } from './anthropic.js';
import { bedrockProtocol } from './bedrock.js';
import { cohereProtocol } from './cohere.js';
import { geminiProtocol } from './gemini.js';
import { mapOllamaDoneReason, ollamaProtocol } from './ollama.js';
import { openaiChatFinishReason, openaiChatProtocol } from './openai-chat.js';
import { openaiResponsesProtocol } from './openai-responses.js';
import { openaiResponsesOutcome } from './openai-responses-items.js';
import type {
  ParsedRequest,
  ProtocolId,
  ProtocolRenderer,
  ResolvedError,
  ResolvedTurn,
  RouteMatch,
  WireEvent,
} from './protocol.js';

/** Walk parsed JSON by keys and indexes; undefined where the path does not exist. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

export const parse = (text: string): unknown => JSON.parse(text);
export const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** A resolved turn builder: common defaults, then the protocol's defaults, then the test's overrides. */
function turnBuilder(defaults: Partial<ResolvedTurn>): (overrides?: Partial<ResolvedTurn>) => ResolvedTurn {
  return (overrides = {}) => ({
    content: [{ type: 'text', text: 'Hello, world' }],
    stopReason: 'end_turn',
    rawStopReason: undefined,
    usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    model: 'mock-model',
    responseId: 'mock-1',
    textDelta: 5,
    argumentsDelta: 8,
    created: 1_700_000_000,
    ...defaults,
    ...overrides,
  });
}

/** A parsed streaming request builder for one protocol, path and model. */
function requestBuilder(
  defaults: Pick<ParsedRequest, 'protocol' | 'path' | 'model'> & Partial<ParsedRequest>,
): (overrides?: Partial<ParsedRequest>) => ParsedRequest {
  return (overrides = {}) => ({
    method: 'POST',
    query: new URLSearchParams(),
    headers: {},
    body: {},
    rawBody: '{}',
    stream: true,
    includeUsage: false,
    ...defaults,
    ...overrides,
  });
}

type Route = [method: string, path: string, body: unknown];

/** What the cross-protocol contract needs to know about one protocol. */
export interface ProtocolContract {
  id: ProtocolId;
  renderer: ProtocolRenderer;
  /** A turn with this protocol's test defaults. */
  turn: (overrides?: Partial<ResolvedTurn>) => ResolvedTurn;
  /** A streaming request with this protocol's test defaults. */
  request: (overrides?: Partial<ParsedRequest>) => ParsedRequest;
  /** Requests the protocol takes, with what the route says about them. */
  routes: [...Route, RouteMatch][];
  /** Requests the protocol leaves to others. */
  foreignRoutes: Route[];
  /** The protocol's own mapping function, where it exports one. */
  mapStopReason?: (reason: MockStopReason) => unknown;
  /** The stop value a rendered (non-streamed) body carries, in the vendor's terms. */
  stopReasonOf: (body: unknown) => unknown;
  /** Neutral stop reason to the vendor's value, as `mapStopReason` and `stopReasonOf` give it. */
  stopReasons: [MockStopReason, unknown][];
  /** A raw vendor stop value, and where a rendered body carries it (default `stopReasonOf`). */
  rawStopReason: { value: string; read?: (body: unknown) => unknown };
  /** The HTTP status of every error kind. */
  errorStatuses: Record<MockErrorKind, number>;
  /** The human-readable message of a rendered error body. */
  errorMessageOf: (body: unknown) => unknown;
  /** An error with status, message and (maybe) retry-after overridden; rendered without a request unless `withRequest`. */
  errorOverride: { error: ResolvedError & { status: number; message: string }; withRequest: boolean };
  /** What `keepAlive()` returns. */
  keepAlive: WireEvent | undefined;
  /** The header `responseHeaders()` puts the request id in, if any. */
  requestIdHeader: string | undefined;
}

const openaiErrorStatuses: Record<MockErrorKind, number> = {
  rate_limit: 429,
  quota: 429,
  overloaded: 503,
  context_overflow: 400,
  auth: 401,
  permission: 403,
  not_found: 404,
  invalid_request: 400,
  server: 500,
};

const anthropic: ProtocolContract = {
  id: 'anthropic',
  renderer: anthropicProtocol,
  turn: turnBuilder({ model: 'claude-test', responseId: 'msg_mock000001' }),
  request: requestBuilder({
    protocol: 'anthropic',
    path: '/v1/messages',
    model: 'claude-test',
    body: { model: 'claude-test', stream: true },
  }),
  routes: [
    ['POST', '/v1/messages', { model: 'claude-x', stream: true }, { model: 'claude-x', stream: true }],
    ['POST', '/proxy/anthropic/v1/messages', { model: 'm' }, { model: 'm', stream: false }],
    ['POST', '/v1/messages', { model: 42, stream: 'yes' }, { model: '', stream: false }],
  ],
  foreignRoutes: [
    ['GET', '/v1/messages', undefined],
    ['POST', '/v1/messages/count_tokens', {}],
    ['POST', '/v1/chat/completions', {}],
  ],
  mapStopReason: anthropicStopReason,
  stopReasonOf: (body) => at(body, 'stop_reason'),
  stopReasons: [
    ['end_turn', 'end_turn'],
    ['tool_use', 'tool_use'],
    ['max_tokens', 'max_tokens'],
    ['stop_sequence', 'stop_sequence'],
    ['pause_turn', 'pause_turn'],
    ['refusal', 'refusal'],
    ['content_filter', 'refusal'],
  ],
  rawStopReason: { value: 'model_context_window_exceeded' },
  errorStatuses: {
    rate_limit: 429,
    overloaded: 529,
    quota: 400,
    context_overflow: 400,
    auth: 401,
    permission: 403,
    not_found: 404,
    invalid_request: 400,
    server: 500,
  },
  errorMessageOf: (body) => at(body, 'error', 'message'),
  errorOverride: {
    error: { error: 'overloaded', status: 503, message: 'busy', retryAfterSeconds: 7 },
    withRequest: false,
  },
  keepAlive: { event: 'ping', data: '{"type":"ping"}' },
  requestIdHeader: 'request-id',
};

const openaiChat: ProtocolContract = {
  id: 'openai-chat',
  renderer: openaiChatProtocol,
  turn: turnBuilder({ model: 'gpt-test', responseId: 'chatcmpl-mock000001' }),
  request: requestBuilder({ protocol: 'openai-chat', path: '/v1/chat/completions', model: 'gpt-test' }),
  routes: [
    [
      'POST',
      '/v1/chat/completions',
      { model: 'gpt-4o', stream: true, stream_options: { include_usage: true } },
      { model: 'gpt-4o', stream: true, includeUsage: true },
    ],
    [
      'POST',
      '/compatible-mode/v1/chat/completions',
      { model: 'qwen' },
      { model: 'qwen', stream: false, includeUsage: false },
    ],
  ],
  foreignRoutes: [
    ['GET', '/v1/chat/completions', undefined],
    ['POST', '/v1/responses', {}],
    ['POST', '/v1/messages', {}],
  ],
  mapStopReason: openaiChatFinishReason,
  stopReasonOf: (body) => at(body, 'choices', 0, 'finish_reason'),
  stopReasons: [
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['tool_use', 'tool_calls'],
    ['max_tokens', 'length'],
    ['content_filter', 'content_filter'],
    ['refusal', 'content_filter'],
  ],
  rawStopReason: { value: 'eos' },
  errorStatuses: openaiErrorStatuses,
  errorMessageOf: (body) => at(body, 'error', 'message'),
  errorOverride: {
    error: { error: 'rate_limit', status: 503, message: 'slow down', retryAfterSeconds: 2, retryAfterMs: 1500 },
    withRequest: false,
  },
  keepAlive: undefined,
  requestIdHeader: 'x-request-id',
};

const openaiResponses: ProtocolContract = {
  id: 'openai-responses',
  renderer: openaiResponsesProtocol,
  turn: turnBuilder({ model: 'gpt-test', responseId: 'resp_mock000001' }),
  request: requestBuilder({
    protocol: 'openai-responses',
    path: '/v1/responses',
    model: 'gpt-test',
    body: { model: 'gpt-test', stream: true },
  }),
  routes: [
    ['POST', '/v1/responses', { model: 'gpt-5', stream: true }, { model: 'gpt-5', stream: true }],
    ['POST', '/openai/v1/responses', {}, { model: '', stream: false }],
  ],
  foreignRoutes: [
    ['GET', '/v1/responses', undefined],
    ['POST', '/v1/responses/resp_1/cancel', {}],
    ['POST', '/v1/chat/completions', {}],
  ],
  mapStopReason: openaiResponsesOutcome,
  // The Responses API has no stop field: a response is completed, or incomplete with a reason.
  stopReasonOf: (body) => ({ status: at(body, 'status'), incompleteReason: at(body, 'incomplete_details', 'reason') }),
  stopReasons: [
    ['end_turn', { status: 'completed', incompleteReason: undefined }],
    ['tool_use', { status: 'completed', incompleteReason: undefined }],
    ['max_tokens', { status: 'incomplete', incompleteReason: 'max_output_tokens' }],
    ['content_filter', { status: 'incomplete', incompleteReason: 'content_filter' }],
    ['refusal', { status: 'incomplete', incompleteReason: 'content_filter' }],
  ],
  rawStopReason: { value: 'weird', read: (body) => at(body, 'incomplete_details', 'reason') },
  errorStatuses: openaiErrorStatuses,
  errorMessageOf: (body) => at(body, 'error', 'message'),
  errorOverride: {
    error: { error: 'rate_limit', status: 503, message: 'slow down', retryAfterSeconds: 2 },
    withRequest: true,
  },
  keepAlive: undefined,
  requestIdHeader: 'x-request-id',
};

const gemini: ProtocolContract = {
  id: 'gemini',
  renderer: geminiProtocol,
  turn: turnBuilder({ model: 'gemini-2.5-flash', responseId: 'resp-1' }),
  request: requestBuilder({
    protocol: 'gemini',
    path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
    query: new URLSearchParams('alt=sse'),
    model: 'gemini-2.5-flash',
  }),
  routes: [
    ['POST', '/v1beta/models/gemini-2.5-pro:generateContent', {}, { model: 'gemini-2.5-pro', stream: false }],
    [
      'POST',
      '/v1/projects/p1/locations/us-central1/publishers/google/models/gemini-2.0-flash:streamGenerateContent',
      {},
      { model: 'gemini-2.0-flash', stream: true },
    ],
    ['POST', '/proxy/google/v1beta/models/my%20model:generateContent', {}, { model: 'my model', stream: false }],
  ],
  foreignRoutes: [
    ['GET', '/v1beta/models/gemini-2.5-pro:generateContent', {}],
    ['POST', '/v1beta/models/gemini-2.5-pro:countTokens', {}],
    ['POST', '/v1/messages', {}],
  ],
  stopReasonOf: (body) => at(body, 'candidates', 0, 'finishReason'),
  stopReasons: [
    ['max_tokens', 'MAX_TOKENS'],
    ['content_filter', 'SAFETY'],
    ['refusal', 'SAFETY'],
    ['stop_sequence', 'STOP'],
    ['pause_turn', 'OTHER'],
  ],
  rawStopReason: { value: 'MALFORMED_FUNCTION_CALL' },
  errorStatuses: {
    rate_limit: 429,
    quota: 429,
    overloaded: 503,
    context_overflow: 400,
    auth: 400,
    permission: 403,
    not_found: 404,
    invalid_request: 400,
    server: 500,
  },
  errorMessageOf: (body) => at(body, 'error', 'message'),
  errorOverride: { error: { error: 'overloaded', status: 500, message: 'boom' }, withRequest: true },
  keepAlive: undefined,
  requestIdHeader: undefined,
};

const bedrockModel = 'anthropic.claude-3-5-sonnet-20240620-v1:0';
const bedrock: ProtocolContract = {
  id: 'bedrock',
  renderer: bedrockProtocol,
  turn: turnBuilder({ model: bedrockModel, responseId: 'bedrock-1', argumentsDelta: 4 }),
  request: requestBuilder({
    protocol: 'bedrock',
    path: `/model/${encodeURIComponent(bedrockModel)}/converse-stream`,
    model: bedrockModel,
  }),
  routes: [
    ['POST', `/model/${encodeURIComponent(bedrockModel)}/converse`, {}, { model: bedrockModel, stream: false }],
    ...(() => {
      const arn = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4';
      return [
        ['POST', `/model/${encodeURIComponent(arn)}/converse-stream`, {}, { model: arn, stream: true }],
        ['POST', `/gateway/model/${arn}/converse`, {}, { model: arn, stream: false }],
      ] satisfies [...Route, RouteMatch][];
    })(),
  ],
  foreignRoutes: [
    ['GET', '/model/m/converse', {}],
    ['POST', '/model/m/invoke', {}],
    ['POST', '/v1/chat/completions', {}],
  ],
  stopReasonOf: (body) => at(body, 'stopReason'),
  stopReasons: [
    ['end_turn', 'end_turn'],
    ['max_tokens', 'max_tokens'],
    ['stop_sequence', 'stop_sequence'],
    ['content_filter', 'content_filtered'],
    ['refusal', 'content_filtered'],
    ['pause_turn', 'end_turn'],
  ],
  rawStopReason: { value: 'model_context_window_exceeded' },
  errorStatuses: {
    rate_limit: 429,
    quota: 400,
    overloaded: 503,
    context_overflow: 400,
    auth: 403,
    permission: 403,
    not_found: 404,
    invalid_request: 400,
    server: 500,
  },
  errorMessageOf: (body) => at(body, 'message'),
  errorOverride: {
    error: {
      error: 'rate_limit',
      status: 503,
      message: 'Too many connections, please wait before trying again.',
      retryAfterSeconds: 7,
    },
    withRequest: true,
  },
  keepAlive: undefined,
  requestIdHeader: 'x-amzn-RequestId',
};

const cohere: ProtocolContract = {
  id: 'cohere',
  renderer: cohereProtocol,
  turn: turnBuilder({
    content: [{ type: 'text', text: 'The capital of France is Paris.' }],
    usage: { input: 12, output: 7, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    model: 'command-a-03-2025',
    responseId: 'cohere-1',
    textDelta: 8,
    argumentsDelta: 5,
  }),
  request: requestBuilder({
    protocol: 'cohere',
    path: '/v2/chat',
    model: 'command-a-03-2025',
    body: { model: 'command-a-03-2025', stream: true },
  }),
  routes: [
    ['POST', '/v2/chat', { model: 'command-r', stream: true }, { model: 'command-r', stream: true }],
    ['POST', '/compat/cohere/v2/chat', { model: 'command-r' }, { model: 'command-r', stream: false }],
    ['POST', '/v2/chat', undefined, { model: '', stream: false }],
  ],
  foreignRoutes: [
    ['POST', '/v1/chat', {}],
    ['GET', '/v2/chat', {}],
    ['POST', '/v2/chat/completions', {}],
  ],
  stopReasonOf: (body) => at(body, 'finish_reason'),
  stopReasons: [
    ['max_tokens', 'MAX_TOKENS'],
    ['stop_sequence', 'STOP_SEQUENCE'],
    ['refusal', 'COMPLETE'],
    ['content_filter', 'ERROR'],
  ],
  rawStopReason: { value: 'TIMEOUT' },
  errorStatuses: {
    rate_limit: 429,
    quota: 402,
    overloaded: 503,
    context_overflow: 400,
    auth: 401,
    permission: 403,
    not_found: 404,
    invalid_request: 400,
    server: 500,
  },
  errorMessageOf: (body) => at(body, 'message'),
  errorOverride: {
    error: { error: 'rate_limit', status: 503, message: 'slow down', retryAfterSeconds: 3 },
    withRequest: true,
  },
  keepAlive: undefined,
  requestIdHeader: undefined,
};

const ollama: ProtocolContract = {
  id: 'ollama',
  renderer: ollamaProtocol,
  turn: turnBuilder({
    usage: { input: 26, output: 298, cacheRead: 4, cacheWrite: 0, reasoning: 0 },
    model: 'llama3.2',
    responseId: 'ollama-1',
  }),
  request: requestBuilder({ protocol: 'ollama', path: '/api/chat', model: 'llama3.2', body: { model: 'llama3.2' } }),
  routes: [
    ['POST', '/api/chat', { model: 'llama3.2' }, { model: 'llama3.2', stream: true }],
    ['POST', '/ollama/api/chat', { model: 'qwen3', stream: false }, { model: 'qwen3', stream: false }],
    ['POST', '/api/chat', undefined, { model: '', stream: true }],
  ],
  foreignRoutes: [
    ['POST', '/api/generate', {}],
    ['GET', '/api/chat', {}],
    ['POST', '/v1/chat/completions', {}],
  ],
  mapStopReason: mapOllamaDoneReason,
  stopReasonOf: (body) => at(body, 'done_reason'),
  stopReasons: [
    ['max_tokens', 'length'],
    ['tool_use', 'stop'],
  ],
  rawStopReason: { value: 'unload' },
  errorStatuses: {
    rate_limit: 429,
    quota: 429,
    overloaded: 503,
    context_overflow: 400,
    auth: 401,
    permission: 403,
    not_found: 404,
    invalid_request: 400,
    server: 500,
  },
  errorMessageOf: (body) => at(body, 'error'),
  errorOverride: {
    error: { error: 'overloaded', status: 502, message: 'cloud model unreachable', retryAfterSeconds: 2 },
    withRequest: true,
  },
  keepAlive: undefined,
  requestIdHeader: undefined,
};

/** Every protocol's contract adapter, by id. */
export const CONTRACTS: Record<ProtocolId, ProtocolContract> = {
  anthropic,
  'openai-chat': openaiChat,
  'openai-responses': openaiResponses,
  gemini,
  bedrock,
  cohere,
  ollama,
};

/** Render a contract's error override the way its per-protocol test did. */
export function renderErrorOverride(contract: ProtocolContract) {
  const { error, withRequest } = contract.errorOverride;
  return contract.renderer.renderError(error, withRequest ? contract.request() : undefined);
}
