import type Anthropic from '@anthropic-ai/sdk';
import type { AdapterSettings } from '../../shared/adapter-settings.js';
import { decodeSseStream } from '../../shared/decode-sse-stream.js';
import { assembleMessage } from '../../shared/message-assembler.js';
import { createProviderFetch } from '../../shared/provider-fetch.js';
import { resolveApiKey } from '../../shared/resolve-api-key.js';
import { withRetries } from '../../shared/retry-policy.js';
import { sendStreamRequest } from '../../shared/send-stream-request.js';
import { type StreamEventBatch, streamWithRetries } from '../../shared/stream-with-retries.js';
import type { ToolInputLimits } from '../../shared/tool-input.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import { ANTHROPIC_ERROR_RULES, type AnthropicErrorContext, toAnthropicLlmError } from './anthropic-errors.js';
import { anthropicMessageToStreamEvents } from './anthropic-message-to-events.js';
import { buildAnthropicRequestBody } from './anthropic-request.js';
import { AnthropicStreamDecoder } from './anthropic-stream.js';
import { type AnthropicRequestBody, anthropicMessageSchema, anthropicModelInfoSchema } from './anthropic-wire.js';

/** Settings of {@link createAnthropicMessagesProvider}. */
export interface AnthropicMessagesSettings extends AdapterSettings {
  /**
   * How the key is sent: `x-api-key` (Anthropic's documented header, the default) or
   * `Authorization: Bearer` (what Anthropic-compatible gateways such as Zhipu GLM / Z.ai and
   * MiniMax document, and what `ANTHROPIC_AUTH_TOKEN` means to Anthropic's own tools).
   */
  authStyle?: 'x-api-key' | 'bearer';
  /** The `anthropic-version` header. Default `2023-06-01`, the version the API reference documents. */
  anthropicVersion?: string;
  /** Beta features, sent as one comma-separated `anthropic-beta` header. */
  betas?: readonly string[];
  /** `max_tokens` when a request sets no `maxOutputTokens` (the API requires it). Default 8192. */
  defaultMaxOutputTokens?: number;
  /**
   * Send back thinking blocks that have no signature. Anthropic rejects them, so they are left out
   * by default; turn this on for compatible vendors that return unsigned thinking and want it echoed.
   */
  replayUnsignedThinking?: boolean;
  /** Bounds on tool-call arguments. */
  toolInputLimits?: ToolInputLimits;
}

/** The Anthropic API's base URL (without `/v1`). */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** The default `anthropic-version` header. @see https://docs.claude.com/en/api/versioning */
export const ANTHROPIC_DEFAULT_VERSION = '2023-06-01';

/** How long a non-streamed call may take to answer (the SDK's own default; streams use stall timers). */
const REQUEST_TIMEOUT_MS = 600_000;

type HeaderValues = Record<string, string | null>;

/**
 * Creates an {@link LlmProvider} for the Anthropic Messages API and servers that speak it. Streams
 * are sent with undici's `request()` on the shared keep-alive agent (cross-origin redirects refused)
 * and decoded in one pass as the body arrives; `createMessage` and `listModels` go through the
 * official SDK (`@anthropic-ai/sdk`, retries off: ours apply) with a fetch on the same agent. Both
 * paths send the same headers and classify errors with the same table. The key is read when a
 * request is made, so creating a provider at import time is safe.
 *
 * @example
 * const anthropic = createAnthropicMessagesProvider(); // key from ANTHROPIC_API_KEY
 * for await (const event of anthropic.streamMessage({
 *   model: 'claude-sonnet-4-6',
 *   system: 'You are terse.',
 *   messages: [{ role: 'user', content: 'Hello!' }],
 *   thinking: { type: 'effort', effort: 'low' },
 * })) {
 *   if (event.type === 'text-delta') process.stdout.write(event.delta);
 * }
 *
 * @example
 * // An Anthropic-compatible vendor (Zhipu GLM via Z.ai), key sent as a Bearer token.
 * const glm = createAnthropicMessagesProvider({
 *   providerId: 'zai',
 *   baseURL: 'https://api.z.ai/api/anthropic',
 *   apiKeyEnvVars: ['ZAI_API_KEY'],
 *   authStyle: 'bearer',
 * });
 *
 * @see https://docs.claude.com/en/api/messages
 */
export function createAnthropicMessagesProvider(settings: AnthropicMessagesSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? 'anthropic';
  const baseURL = (settings.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const messagesUrl = `${baseURL}/v1/messages`;
  const fetch = createProviderFetch({
    providerId,
    ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
  });
  let cached: { key: string; client: Anthropic } | undefined;

  /** The key and headers of one call; the key is resolved now, never at creation. */
  function credentials(callHeaders: Record<string, string> | undefined) {
    const apiKey =
      settings.noApiKey === true
        ? undefined
        : resolveApiKey({
            providerId,
            apiKey: settings.apiKey,
            envVarNames: settings.apiKeyEnvVars ?? ['ANTHROPIC_API_KEY'],
            ...(settings.env === undefined ? {} : { env: settings.env }),
          });
    return {
      apiKey,
      headers: requestHeaders(settings, callHeaders, apiKey),
      secrets: apiKey === undefined ? [] : [apiKey],
    };
  }

  /** The SDK client (non-streamed calls and paginated model lists) and the headers for one call. */
  async function connect(callHeaders: Record<string, string> | undefined) {
    const { apiKey, headers, secrets } = credentials(callHeaders);
    const clientKey = apiKey ?? '';
    if (cached?.key !== clientKey) {
      // Loaded on first use: the SDK costs more CPU to import than the rest of this package, and
      // streams (the common path) never need it.
      const { default: AnthropicClient } = await import('@anthropic-ai/sdk');
      // The key also goes in the headers below; `authToken` only keeps the SDK from looking for credentials.
      const client = new AnthropicClient({
        baseURL,
        authToken: apiKey ?? 'no-key',
        maxRetries: 0,
        timeout: REQUEST_TIMEOUT_MS,
        fetch,
      });
      cached = { key: clientKey, client };
    }
    return { client: cached.client, headers, secrets };
  }

  function errorContext(url: string, signal: AbortSignal, secrets: readonly string[]): AnthropicErrorContext {
    return { providerId, url, signal, knownSecrets: secrets };
  }

  function requestBody(request: LlmRequest): AnthropicRequestBody {
    return buildAnthropicRequestBody(request, {
      providerId,
      ...(settings.defaultMaxOutputTokens === undefined
        ? {}
        : { defaultMaxOutputTokens: settings.defaultMaxOutputTokens }),
      ...(settings.replayUnsignedThinking === undefined
        ? {}
        : { replayUnsignedThinking: settings.replayUnsignedThinking }),
    });
  }

  const decoderOptions = (context: AnthropicErrorContext) => ({
    errorContext: context,
    ...(settings.toolInputLimits === undefined ? {} : { toolInputLimits: settings.toolInputLimits }),
  });

  /**
   * Sends one streamed request and decodes the body as it arrives. Streams skip the SDK: undici's
   * `request()` hands over raw byte chunks, where the SDK's WHATWG fetch costs a `ReadableStream`
   * hop per network read (see the package benchmark). Non-2xx answers are classified with
   * {@link ANTHROPIC_ERROR_RULES}, exactly as `toAnthropicLlmError` classifies the SDK's errors.
   */
  async function openStream(
    request: LlmRequest,
    options: LlmCallOptions,
    signal: AbortSignal,
  ): Promise<AsyncIterable<StreamEventBatch>> {
    const { headers, secrets } = credentials(options.headers);
    const response = await sendStreamRequest({
      providerId,
      url: messagesUrl,
      headers: wireHeaders(headers),
      body: { ...requestBody(request), stream: true },
      signal,
      errorRules: ANTHROPIC_ERROR_RULES,
      knownSecrets: secrets,
      ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
    });
    const context = errorContext(messagesUrl, signal, secrets);
    const decoder = new AnthropicStreamDecoder(decoderOptions(context));
    // One pass from bytes to events; a `ping` or a comment is a keep-alive for the stall timers.
    return decodeSseStream(response.body, { event: (_type, data, out) => decoder.handleData(data, out) });
  }

  return {
    id: providerId,
    adapter: 'anthropic-messages',
    name: settings.providerName ?? (providerId === 'anthropic' ? 'Anthropic' : providerId),

    streamMessage(request, options = {}) {
      return streamWithRetries((_attempt, signal) => openStream(request, options, signal), {
        ...settings.retry,
        providerId,
        rules: ANTHROPIC_ERROR_RULES,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(settings.stall === undefined ? {} : { stall: settings.stall }),
      });
    },

    createMessage(request, options = {}) {
      return withRetries(
        async (_attempt, signal) => {
          const { client, headers, secrets } = await connect(options.headers);
          const context = errorContext(messagesUrl, signal, secrets);
          let json: unknown;
          try {
            const response = await client.messages
              .create({ ...requestBody(request), stream: false }, { headers, signal })
              .asResponse();
            json = await response.json();
          } catch (error) {
            if (error instanceof SyntaxError && !signal.aborted) throw invalidBody(providerId, error);
            throw toAnthropicLlmError(error, context);
          }
          const message = anthropicMessageSchema.safeParse(json);
          if (!message.success) throw invalidBody(providerId, message.error);
          return assembleMessage(anthropicMessageToStreamEvents(message.data, decoderOptions(context)));
        },
        {
          ...settings.retry,
          providerId,
          rules: ANTHROPIC_ERROR_RULES,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
      );
    },

    listModels(options = {}) {
      return withRetries(
        async (_attempt, signal) => {
          const { client, headers, secrets } = await connect(options.headers);
          const models: ModelInfo[] = [];
          try {
            // @see https://docs.claude.com/en/api/models-list (paginated; the SDK follows `last_id`)
            for await (const entry of client.models.list({ limit: 1000 }, { headers, signal })) {
              const model = anthropicModelInfoSchema.safeParse(entry);
              if (!model.success) continue;
              const { id, display_name, created_at, max_input_tokens, max_tokens } = model.data;
              models.push({
                id,
                ...(display_name ? { name: display_name } : {}),
                ...(typeof max_input_tokens === 'number' ? { contextWindow: max_input_tokens } : {}),
                ...(typeof max_tokens === 'number' ? { maxOutputTokens: max_tokens } : {}),
                ...(created_at ? { createdAt: created_at } : {}),
              });
            }
          } catch (error) {
            throw toAnthropicLlmError(error, errorContext(`${baseURL}/v1/models`, signal, secrets));
          }
          return models;
        },
        {
          ...settings.retry,
          providerId,
          rules: ANTHROPIC_ERROR_RULES,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
      );
    },
  };
}

/**
 * The headers of one request: `anthropic-version`, the betas (from `betas`, and any `anthropic-beta`
 * in the settings' or the call's headers, merged), the settings' and the call's headers, and the key
 * in the header `authStyle` names (the other auth header removed, so the SDK's own Bearer header is
 * never sent beside `x-api-key`).
 *
 * @see https://docs.claude.com/en/api/overview#authentication
 * @see https://docs.claude.com/en/api/beta-headers
 */
export function requestHeaders(
  settings: Pick<AnthropicMessagesSettings, 'anthropicVersion' | 'betas' | 'headers' | 'authStyle'>,
  callHeaders: Record<string, string> | undefined,
  apiKey: string | undefined,
): HeaderValues {
  const headers: HeaderValues = { 'anthropic-version': settings.anthropicVersion ?? ANTHROPIC_DEFAULT_VERSION };
  const betas = new Set(settings.betas ?? []);
  for (const source of [settings.headers, callHeaders]) {
    for (const [name, value] of Object.entries(source ?? {})) {
      const lower = name.toLowerCase();
      if (lower === 'anthropic-beta') {
        for (const beta of value.split(',')) if (beta.trim() !== '') betas.add(beta.trim());
      } else {
        headers[lower] = value;
      }
    }
  }
  if (betas.size > 0) headers['anthropic-beta'] = [...betas].join(',');
  if (apiKey === undefined) return { ...headers, authorization: null, 'x-api-key': null };
  return settings.authStyle === 'bearer'
    ? { ...headers, authorization: `Bearer ${apiKey}`, 'x-api-key': null }
    : { ...headers, 'x-api-key': apiKey, authorization: null };
}

/**
 * The headers of a request sent without the SDK: what {@link requestHeaders} sets (its `null`s, which
 * tell the SDK to drop a header, left out) over the JSON content type and `accept` the SDK sends.
 */
function wireHeaders(headers: HeaderValues): Record<string, string> {
  const wire: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string') wire[name] = value;
  }
  return wire;
}

function invalidBody(providerId: string, cause: unknown) {
  return createLlmError({
    reason: 'server',
    providerId,
    cause,
    message: `Provider "${providerId}" answered with a body that is not a Messages API message: retry, or check the base URL.`,
  });
}
