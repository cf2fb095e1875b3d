import { linkAbortController } from '../../shared/abort.js';
import type { AdapterSettings } from '../../shared/adapter-settings.js';
import { createProviderFetch } from '../../shared/provider-fetch.js';
import { readJsonBody } from '../../shared/read-json-body.js';
import { resolveApiKey } from '../../shared/resolve-api-key.js';
import { withRetries } from '../../shared/retry-policy.js';
import { sendRequest } from '../../shared/send-request.js';
import { type StreamResponse, sendStreamRequest } from '../../shared/send-stream-request.js';
import { streamWithRetries } from '../../shared/stream-with-retries.js';
import { toLlmError } from '../../shared/to-llm-error.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { COHERE_ERROR_RULES, withCohereTokenCounts } from './cohere-errors.js';
import { buildCohereRequest, COHERE_PROTOCOL_ID } from './cohere-request.js';
import { mapCohereResponse } from './cohere-response.js';
import { CohereStreamDecoder, decodeCohereEventStream } from './cohere-stream.js';
import { cohereChatResponseSchema, cohereModelListSchema } from './cohere-wire.js';

/** Settings of {@link createCohereProvider}. */
export type CohereSettings = AdapterSettings;

/** Cohere's API host; the adapter adds `/v2/chat` and `/v1/models`. */
export const COHERE_DEFAULT_BASE_URL = 'https://api.cohere.com';

/** Where the key is read from when `apiKey` is not passed, in order. */
export const COHERE_API_KEY_ENV_VARS: readonly string[] = ['COHERE_API_KEY', 'CO_API_KEY'];

/** Most pages of the model list read (a guard against a server that never stops paging). */
const MAX_MODEL_PAGES = 20;

/**
 * An {@link LlmProvider} for Cohere's v2 Chat API (`POST /v2/chat`, streamed as SSE) over plain
 * HTTP with a bearer key, with retries, stall timers and Cohere's errors classified. A tool turn's
 * `tool_plan` becomes a thinking block (reasoning, not answer text) marked `cohere.toolPlan` and is sent back as `tool_plan`;
 * thinking is replayed as `thinking` content; usage counts `tokens` (see `mapCohereUsage`).
 *
 * @example
 * const cohere = createCohereProvider(); // reads COHERE_API_KEY (or CO_API_KEY) when a request is made
 * const response = await cohere.createMessage({
 *   model: 'command-a-03-2025',
 *   maxOutputTokens: 1024,
 *   messages: [{ role: 'user', content: 'Hello' }],
 * });
 *
 * @see https://docs.cohere.com/reference/chat
 */
export function createCohereProvider(settings: CohereSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? COHERE_PROTOCOL_ID;
  const base = (settings.baseURL ?? COHERE_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const fetch = createProviderFetch({
    providerId,
    ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
  });
  const retry = { providerId, rules: COHERE_ERROR_RULES, ...settings.retry };

  type SendInit = {
    body?: unknown;
    signal: AbortSignal;
    callHeaders?: Record<string, string> | undefined;
    accept: string;
  };

  /** The headers, body, key and error table of a request; the key is read now, never at creation. */
  function requestOptions(url: string, init: SendInit) {
    const key = settings.noApiKey
      ? undefined
      : resolveApiKey({
          providerId,
          apiKey: settings.apiKey,
          envVarNames: settings.apiKeyEnvVars ?? COHERE_API_KEY_ENV_VARS,
          ...(settings.env === undefined ? {} : { env: settings.env }),
        });
    return {
      providerId,
      url,
      headers: {
        ...settings.headers,
        ...init.callHeaders,
        accept: init.accept,
        ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      },
      ...(init.body === undefined ? { method: 'GET' } : { body: init.body }),
      signal: init.signal,
      errorRules: COHERE_ERROR_RULES,
      ...(key === undefined ? {} : { knownSecrets: [key] }),
    };
  }

  async function send(url: string, init: SendInit): Promise<Response> {
    try {
      return await sendRequest({ ...requestOptions(url, init), fetch });
    } catch (error) {
      throw withCohereTokenCounts(toLlmError(error, { providerId, url, signal: init.signal }));
    }
  }

  /**
   * A streaming request through undici's `request()` (no WHATWG `Response`/`ReadableStream`, which
   * costs a stream close to a millisecond of CPU), with the same headers and error classification.
   */
  async function sendStream(url: string, init: SendInit): Promise<StreamResponse> {
    try {
      return await sendStreamRequest({
        ...requestOptions(url, init),
        ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
      });
    } catch (error) {
      throw withCohereTokenCounts(toLlmError(error, { providerId, url, signal: init.signal }));
    }
  }

  const withSignal = (options: LlmCallOptions) => (options.signal === undefined ? {} : { signal: options.signal });

  return {
    id: providerId,
    adapter: 'cohere-v2',
    name: settings.providerName ?? 'Cohere',

    streamMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
      return streamWithRetries(
        async (_attempt, signal) => {
          const response = await sendStream(`${base}/v2/chat`, {
            body: buildCohereRequest(request, true),
            signal,
            callHeaders: options.headers,
            accept: 'text/event-stream',
          });
          return decodeCohereEventStream(response.body, new CohereStreamDecoder({ providerId, model: request.model }));
        },
        { ...retry, ...withSignal(options), ...(settings.stall === undefined ? {} : { stall: settings.stall }) },
      );
    },

    createMessage(request: LlmRequest, options: LlmCallOptions = {}): Promise<AssistantResponse> {
      return withRetries(
        async (_attempt, attemptSignal) => {
          const link = linkAbortController(attemptSignal);
          try {
            const response = await send(`${base}/v2/chat`, {
              body: buildCohereRequest(request, false),
              signal: link.controller.signal,
              callHeaders: options.headers,
              accept: 'application/json',
            });
            const json = await readJsonBody(response, link.controller, settings, providerId);
            const parsed = cohereChatResponseSchema.safeParse(json);
            if (!parsed.success) {
              throw createLlmError({
                reason: 'server',
                providerId,
                cause: parsed.error,
                message: `Provider "${providerId}" sent a chat response of an unexpected shape.`,
              });
            }
            return mapCohereResponse(parsed.data, request.model);
          } finally {
            link.dispose();
          }
        },
        { ...retry, ...withSignal(options) },
      );
    },

    listModels(options: LlmCallOptions = {}): Promise<ModelInfo[]> {
      return withRetries(
        async (_attempt, signal) => {
          const models: ModelInfo[] = [];
          let pageToken: string | undefined;
          for (let page = 0; page < MAX_MODEL_PAGES; page += 1) {
            const url = new URL(`${base}/v1/models`);
            url.searchParams.set('endpoint', 'chat');
            url.searchParams.set('page_size', '1000');
            if (pageToken !== undefined) url.searchParams.set('page_token', pageToken);
            const response = await send(url.href, { signal, callHeaders: options.headers, accept: 'application/json' });
            const parsed = cohereModelListSchema.safeParse(await response.json());
            if (!parsed.success) {
              throw createLlmError({
                reason: 'server',
                providerId,
                cause: parsed.error,
                message: `Provider "${providerId}" sent a model list of an unexpected shape.`,
              });
            }
            for (const model of parsed.data.models ?? []) {
              models.push({
                id: model.name,
                name: model.name,
                ...(model.context_length === undefined ? {} : { contextWindow: model.context_length }),
              });
            }
            pageToken = parsed.data.next_page_token ?? undefined;
            if (pageToken === undefined || pageToken === '') break;
          }
          return models;
        },
        { ...retry, ...withSignal(options) },
      );
    },
  };
}
