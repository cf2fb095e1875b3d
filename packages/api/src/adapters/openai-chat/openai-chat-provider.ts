import { assembleMessage } from '../../shared/message-assembler.js';
import { createProviderFetch } from '../../shared/provider-fetch.js';
import { resolveApiKey } from '../../shared/resolve-api-key.js';
import { withRetries } from '../../shared/retry-policy.js';
import { type SendRequestOptions, sendRequest } from '../../shared/send-request.js';
import { type StreamResponse, sendStreamRequest } from '../../shared/send-stream-request.js';
import { streamWithRetries } from '../../shared/stream-with-retries.js';
import { isLlmError } from '../../spec/llm-error.js';
import { NetworkError } from '../../spec/llm-error-classes.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { classifyStreamError, OPENAI_CHAT_ERROR_RULES, withOverflowTokenCounts } from './openai-chat-errors.js';
import { buildRequestBody } from './openai-chat-request.js';
import {
  OPENAI_CHAT_DEFAULT_API_KEY_ENV_VARS,
  OPENAI_CHAT_DEFAULT_BASE_URL,
  OPENAI_CHAT_METADATA_KEY,
  type OpenAIChatSettings,
  resolveCompat,
} from './openai-chat-settings.js';
import { ChatStreamMapper, decodeChatStream } from './openai-chat-stream.js';
import { type ChatChunk, chunkSchema, modelListSchema } from './openai-chat-wire.js';

/**
 * Creates an {@link LlmProvider} for any OpenAI Chat Completions server: OpenAI, Azure OpenAI,
 * DeepSeek, Groq, Mistral, xAI, Moonshot, Qwen (DashScope), Zhipu GLM, OpenRouter, Together,
 * Fireworks, Cerebras, Perplexity, SiliconFlow, Volcengine, vLLM, LM Studio…. A server's quirks are
 * settings (`authStyle`, `query`, `compat`), not code paths per vendor.
 *
 * Requests go through `sendRequest` (undici, no cross-origin redirects; streams through
 * `sendStreamRequest`, undici's `request()` without a WHATWG body) rather than the `openai` SDK: the SDK keeps only `body.error` of an error response, so servers that answer
 * `{"object": "error", "message": …}` (vLLM, Mistral) lose their wording ("400 status code (no
 * body)") and context overflows go unrecognised; and its SSE iteration is several times slower than
 * the one-pass reader used here. The key is read when a request is made, never at creation.
 *
 * @example
 * const deepseek = createOpenAIChatProvider({
 *   providerId: 'deepseek',
 *   baseURL: 'https://api.deepseek.com',
 *   apiKeyEnvVars: ['DEEPSEEK_API_KEY'],
 *   compat: { maxTokensField: 'max_tokens', thinking: 'thinking-type', echoReasoningContent: true },
 * });
 * for await (const event of deepseek.streamMessage({ model: 'deepseek-chat', messages: [{ role: 'user', content: 'Hi' }] })) {
 *   if (event.type === 'text-delta') process.stdout.write(event.delta);
 * }
 */
export function createOpenAIChatProvider(settings: OpenAIChatSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? OPENAI_CHAT_METADATA_KEY;
  const compat = resolveCompat(settings.compat);
  const baseURL = (settings.baseURL ?? OPENAI_CHAT_DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (!URL.canParse(baseURL)) {
    throw new Error(
      `createOpenAIChatProvider: baseURL "${baseURL}" is not an absolute URL; pass one such as "https://api.openai.com/v1".`,
    );
  }
  const authStyle = settings.noApiKey === true ? 'none' : (settings.authStyle ?? 'bearer');
  const fetch = createProviderFetch({
    providerId,
    ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
  });
  const rules = OPENAI_CHAT_ERROR_RULES;
  const retryOptions = { ...settings.retry, providerId, rules };

  function urlOf(path: string): string {
    const url = new URL(`${baseURL}${path}`);
    for (const [name, value] of Object.entries(settings.query ?? {})) url.searchParams.set(name, value);
    return url.href;
  }

  function credentials(): { headers: Record<string, string>; secrets: string[] } {
    if (authStyle === 'none') return { headers: {}, secrets: [] };
    const key = resolveApiKey({
      providerId,
      apiKey: settings.apiKey,
      envVarNames: settings.apiKeyEnvVars ?? OPENAI_CHAT_DEFAULT_API_KEY_ENV_VARS,
      ...(settings.env === undefined ? {} : { env: settings.env }),
    });
    return {
      headers: authStyle === 'api-key' ? { 'api-key': key } : { authorization: `Bearer ${key}` },
      secrets: [key],
    };
  }

  function requestHeaders(
    auth: { headers: Record<string, string> },
    callHeaders: Record<string, string> | undefined,
    accept: string,
    hasBody: boolean,
  ): Record<string, string> {
    return {
      accept,
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
      ...settings.headers,
      ...callHeaders,
      ...auth.headers,
    };
  }

  async function send(
    options: Pick<SendRequestOptions, 'url' | 'method' | 'body' | 'signal'>,
    callHeaders: Record<string, string> | undefined,
    accept: string,
  ): Promise<Response> {
    const auth = credentials();
    try {
      return await sendRequest({
        ...options,
        providerId,
        fetch,
        errorRules: rules,
        knownSecrets: auth.secrets,
        headers: requestHeaders(auth, callHeaders, accept, options.body !== undefined),
      });
    } catch (error) {
      throw isLlmError(error) ? withOverflowTokenCounts(error) : error;
    }
  }

  /**
   * Sends a streaming request with undici's `request()` (no WHATWG `Response`/`ReadableStream`,
   * which costs a stream close to a millisecond of CPU), same headers and error classification.
   */
  async function sendStream(
    url: string,
    body: string,
    callHeaders: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<StreamResponse> {
    const auth = credentials();
    try {
      return await sendStreamRequest({
        providerId,
        url,
        body,
        signal,
        errorRules: rules,
        knownSecrets: auth.secrets,
        headers: requestHeaders(auth, callHeaders, 'text/event-stream', true),
        ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
      });
    } catch (error) {
      throw isLlmError(error) ? withOverflowTokenCounts(error) : error;
    }
  }

  function newMapper(url: string): ChatStreamMapper {
    return new ChatStreamMapper({ providerId, reasoningFields: compat.reasoningFields, rules, url });
  }

  return {
    id: providerId,
    adapter: 'openai-chat',
    name: settings.providerName ?? 'OpenAI Chat Completions',

    streamMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
      const url = urlOf('/chat/completions');
      let body: string | undefined;
      return streamWithRetries(
        async function openAttempt(_attempt, signal) {
          // Built lazily (once), so even a bad request ends as an error event, never a throw.
          body ??= JSON.stringify(buildRequestBody(request, { compat, providerId, stream: true }));
          const response = await sendStream(url, body, options.headers, signal);
          return decodeChatStream(response.body, newMapper(url));
        },
        {
          ...retryOptions,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(settings.stall === undefined ? {} : { stall: settings.stall }),
        },
      );
    },

    createMessage(request: LlmRequest, options: LlmCallOptions = {}): Promise<AssistantResponse> {
      const url = urlOf('/chat/completions');
      let body: string | undefined;
      return withRetries(
        async (_attempt, signal) => {
          body ??= JSON.stringify(buildRequestBody(request, { compat, providerId, stream: false }));
          const response = await send({ url, body, signal }, options.headers, 'application/json');
          return completionToResponse(await response.text(), newMapper(url), providerId, url);
        },
        { ...retryOptions, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
    },

    listModels(options: LlmCallOptions = {}): Promise<ModelInfo[]> {
      const url = urlOf('/models');
      return withRetries(
        async (_attempt, signal) => {
          const response = await send({ url, method: 'GET', signal }, options.headers, 'application/json');
          return toModelInfos(parseJson(await response.text(), providerId, url));
        },
        { ...retryOptions, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
    },
  };
}

/**
 * Converts a non-streamed `chat.completion` by feeding it to the stream mapper as one chunk (its
 * `message` is a delta holding everything), so `createMessage` and `streamMessage` assemble the
 * same message from the same output. Tool calls get their position as `index`.
 */
async function completionToResponse(
  text: string,
  mapper: ChatStreamMapper,
  providerId: string,
  url: string,
): Promise<AssistantResponse> {
  const parsed = chunkSchema.safeParse(parseJson(text, providerId, url));
  if (!parsed.success) {
    throw new NetworkError({
      providerId,
      url,
      message: `Provider "${providerId}" answered with a body that is not a chat completion.`,
    });
  }
  const completion = parsed.data;
  if (completion.error !== undefined && completion.error !== null) {
    throw classifyStreamError(completion.error, { providerId, url });
  }
  const chunk: ChatChunk = {
    ...completion,
    choices: (completion.choices ?? []).map((choice) => {
      const message = choice.message ?? choice.delta;
      const toolCalls = message?.tool_calls?.map((call, index) => ({ ...call, index }));
      return {
        ...choice,
        delta: message === undefined || message === null ? message : { ...message, tool_calls: toolCalls },
        message: undefined,
      };
    }),
  };
  const events: StreamEvent[] = [];
  mapper.push(chunk, events);
  mapper.finish(true, events);
  return assembleMessage(events);
}

function parseJson(text: string, providerId: string, url: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new NetworkError({
      providerId,
      url,
      cause,
      message: `Provider "${providerId}" answered with a body that is not valid JSON (${text.length} characters; cut short?).`,
    });
  }
}

function toModelInfos(body: unknown): ModelInfo[] {
  const parsed = modelListSchema.safeParse(body);
  if (!parsed.success) return [];
  const models = Array.isArray(parsed.data) ? parsed.data : parsed.data.data;
  const infos: ModelInfo[] = [];
  for (const model of models) {
    if (model === null) continue;
    const name = model.name ?? model.display_name ?? undefined;
    const contextWindow = model.context_length ?? model.context_window ?? model.max_context_length ?? undefined;
    const maxOutputTokens = model.max_completion_tokens ?? model.top_provider?.max_completion_tokens ?? undefined;
    infos.push({
      id: model.id,
      ...(name === undefined ? {} : { name }),
      ...(contextWindow === undefined ? {} : { contextWindow }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...(model.created === undefined || model.created === null
        ? {}
        : { createdAt: new Date(model.created * 1000).toISOString() }),
    });
  }
  return infos;
}
