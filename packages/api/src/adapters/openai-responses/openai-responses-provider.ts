import type { AdapterSettings } from '../../shared/adapter-settings.js';
import type { BatchSource } from '../../shared/batch-source.js';
import { decodeSseStream } from '../../shared/decode-sse-stream.js';
import { assembleMessage } from '../../shared/message-assembler.js';
import { createProviderFetch } from '../../shared/provider-fetch.js';
import type { ByteStream } from '../../shared/read-event-stream.js';
import { resolveApiKey } from '../../shared/resolve-api-key.js';
import { withRetries } from '../../shared/retry-policy.js';
import { sendRequest } from '../../shared/send-request.js';
import { sendStreamRequest } from '../../shared/send-stream-request.js';
import { type StreamEventBatch, streamWithRetries } from '../../shared/stream-with-retries.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { OPENAI_RESPONSES_ERROR_RULES } from './openai-responses-errors.js';
import { OPENAI_RESPONSES_METADATA_KEY } from './openai-responses-metadata.js';
import { buildOpenAIResponsesRequest, type OpenAIReasoningSummary } from './openai-responses-request.js';
import { OpenAIResponsesStreamMapper } from './openai-responses-stream.js';
import { openaiModelListSchema, openaiModelSchema } from './openai-responses-wire.js';

/** Settings of {@link createOpenAIResponsesProvider}. */
export interface OpenAIResponsesSettings extends AdapterSettings {
  /**
   * How the key is sent: `bearer` (`Authorization: Bearer <key>`, OpenAI and most servers, the
   * default) or `api-key` (an `api-key: <key>` header, Azure OpenAI).
   */
  authStyle?: 'bearer' | 'api-key';
  /** Query parameters on every request, e.g. Azure's `{ 'api-version': 'preview' }`. */
  query?: Record<string, string>;
  /**
   * Whether OpenAI keeps responses (`store`). Default `false`: stateless, so every turn sends the
   * whole conversation, reasoning is requested with `include: ['reasoning.encrypted_content']` and
   * replayed from it, and no item id of an earlier response is sent. Set `true` to let the server
   * keep them (item ids are then replayed too).
   */
  store?: boolean;
  /**
   * Reasoning summary to ask reasoning models for (`reasoning.summary`); thinking blocks stay empty
   * without one. Default: none, because OpenAI refuses summaries to organizations that are not
   * verified.
   */
  reasoningSummary?: OpenAIReasoningSummary;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_ENV_VARS = ['OPENAI_API_KEY'] as const;

/**
 * Creates an {@link LlmProvider} for the OpenAI Responses API (`POST /responses`), also spoken by
 * Azure OpenAI (`authStyle: 'api-key'`) and other compatible servers. Streams are sent with undici's
 * `request()` on the shared keep-alive agent (no SDK, no WHATWG fetch: a `ReadableStream` hop per
 * network read is what a token stream pays for most) and decoded in one pass, one batch of stream
 * events per network chunk; HTTP errors are classified with {@link OPENAI_RESPONSES_ERROR_RULES},
 * our retries honour `retry-after` and stop once content has streamed. `createMessage` assembles the
 * same stream, so both give the same message. The key is read when a request is made. Only the
 * settings reach the server: ambient `OPENAI_*` variables other than the key (`OPENAI_BASE_URL`,
 * `OPENAI_ORG_ID`, `OPENAI_PROJECT_ID`, `OPENAI_CUSTOM_HEADERS`) are never read, so nothing meant
 * for one server leaks to another: pass `baseURL` and `headers`.
 *
 * @example
 * const openai = createOpenAIResponsesProvider({ reasoningSummary: 'auto' });
 * for await (const event of openai.streamMessage({ model: 'gpt-5', messages: [{ role: 'user', content: 'Hi' }] })) {
 *   if (event.type === 'text-delta') process.stdout.write(event.delta);
 * }
 *
 * @see https://platform.openai.com/docs/api-reference/responses
 */
export function createOpenAIResponsesProvider(settings: OpenAIResponsesSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? OPENAI_RESPONSES_METADATA_KEY;
  const baseURL = (settings.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const query = settings.query === undefined ? '' : `?${new URLSearchParams(settings.query).toString()}`;
  const responsesUrl = `${baseURL}/responses${query}`;
  const modelsUrl = `${baseURL}/models${query}`;
  const dispatcher = settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher };
  const fetch = createProviderFetch({ providerId, ...dispatcher });

  /** The key of one call, resolved now (never at creation); empty with `noApiKey`. */
  const resolveKey = (): string =>
    settings.noApiKey
      ? ''
      : resolveApiKey({
          providerId,
          apiKey: settings.apiKey,
          envVarNames: settings.apiKeyEnvVars ?? DEFAULT_ENV_VARS,
          ...(settings.env === undefined ? {} : { env: settings.env }),
        });

  const retry = { providerId, rules: OPENAI_RESPONSES_ERROR_RULES, ...settings.retry };

  async function openStream(
    request: LlmRequest,
    options: LlmCallOptions,
    declaredToolNames: ReadonlySet<string>,
    signal: AbortSignal,
  ): Promise<AsyncIterable<StreamEventBatch>> {
    const body = buildOpenAIResponsesRequest(request, {
      store: settings.store ?? false,
      reasoningSummary: settings.reasoningSummary,
      providerId,
    });
    const key = resolveKey();
    const response = await sendStreamRequest({
      providerId,
      url: responsesUrl,
      headers: requestHeaders(settings, key, options.headers),
      body: { ...body, stream: true },
      signal,
      errorRules: OPENAI_RESPONSES_ERROR_RULES,
      knownSecrets: key === '' ? [] : [key],
      ...dispatcher,
    });
    return decodeResponsesStream(response.body, new OpenAIResponsesStreamMapper({ providerId, declaredToolNames }));
  }

  const provider: LlmProvider = {
    id: providerId,
    adapter: 'openai-responses',
    name: settings.providerName ?? 'OpenAI Responses',

    streamMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
      const declaredToolNames = new Set((request.tools ?? []).map((tool) => tool.name));
      return streamWithRetries((_attempt, signal) => openStream(request, options, declaredToolNames, signal), {
        ...retry,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(settings.stall === undefined ? {} : { stall: settings.stall }),
      });
    },

    createMessage(request, options = {}) {
      const declaredToolNames = new Set((request.tools ?? []).map((tool) => tool.name));
      // Nothing reaches the caller until the message is complete, so a stream cut after content is
      // retried as a whole here (the stream itself, for streaming callers, stops retrying at content).
      return withRetries(
        (_attempt, signal) =>
          assembleMessage(
            streamWithRetries((_inner, innerSignal) => openStream(request, options, declaredToolNames, innerSignal), {
              ...retry,
              maxRetries: 0,
              signal,
              ...(settings.stall === undefined ? {} : { stall: settings.stall }),
            }),
          ),
        { ...retry, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
    },

    listModels(options: LlmCallOptions = {}): Promise<ModelInfo[]> {
      return withRetries(
        async (_attempt, signal) => {
          const key = resolveKey();
          const response = await sendRequest({
            providerId,
            url: modelsUrl,
            method: 'GET',
            headers: requestHeaders(settings, key, options.headers),
            signal,
            fetch,
            errorRules: OPENAI_RESPONSES_ERROR_RULES,
            knownSecrets: key === '' ? [] : [key],
          });
          return toModelInfos(await response.json());
        },
        { ...retry, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
    },
  };
  return provider;
}

/**
 * The headers of one request, names lowercased so later sources win whatever their case: JSON
 * `content-type` and `accept`, the key (`authorization: Bearer` or Azure's `api-key`, none with
 * `noApiKey`), then the settings' headers, then the call's (the same order the SDK merged them in).
 */
function requestHeaders(
  settings: OpenAIResponsesSettings,
  key: string,
  callHeaders: Record<string, string> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (!settings.noApiKey) {
    if (settings.authStyle === 'api-key') headers['api-key'] = key;
    else headers.authorization = `Bearer ${key}`;
  }
  for (const source of [settings.headers, callHeaders]) {
    if (source === undefined) continue;
    for (const name in source) {
      const value = source[name];
      if (value !== undefined) headers[name.toLowerCase()] = value;
    }
  }
  return headers;
}

/**
 * Reads the SSE body into stream events with the shared SSE read loop (one batch per network chunk;
 * a `keepalive` event, a comment or a progress event restarts the stall timers). The body is read to
 * its end even after the terminal event: later events are ignored.
 */
function decodeResponsesStream(body: ByteStream, mapper: OpenAIResponsesStreamMapper): BatchSource {
  let done = false;
  return decodeSseStream(body, {
    event: (type, data, out) => {
      if (!done) done = mapper.handleEvent(type, data, out);
    },
    end: (out) => {
      if (!done) mapper.finish(out);
    },
  });
}

/** @see https://platform.openai.com/docs/api-reference/models/list */
function toModelInfos(body: unknown): ModelInfo[] {
  const list = openaiModelListSchema.safeParse(body);
  if (!list.success) return [];
  return list.data.data.flatMap((entry) => {
    const model = openaiModelSchema.safeParse(entry);
    if (!model.success) return [];
    const created = model.data.created;
    return [
      {
        id: model.data.id,
        ...(created === undefined ? {} : { createdAt: new Date(created * 1000).toISOString() }),
      },
    ];
  });
}
