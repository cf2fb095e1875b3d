import type { AdapterSettings } from '../../shared/adapter-settings.js';
import { assembleMessage } from '../../shared/message-assembler.js';
import { createProviderFetch, type FetchFunction } from '../../shared/provider-fetch.js';
import { withRetries } from '../../shared/retry-policy.js';
import { sendRequest } from '../../shared/send-request.js';
import { sendStreamRequest } from '../../shared/send-stream-request.js';
import { streamWithRetries } from '../../shared/stream-with-retries.js';
import { toLlmError } from '../../shared/to-llm-error.js';
import { NetworkError } from '../../spec/llm-error-classes.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { readOllamaStream } from './ollama-chunk.js';
import { OLLAMA_ERROR_RULES, refineOllamaError } from './ollama-errors.js';
import { buildOllamaRequestBody } from './ollama-request.js';
import { OllamaResponseMapper } from './ollama-stream.js';
import { type OllamaChatResponse, ollamaChatResponseSchema, ollamaTagsSchema } from './ollama-wire.js';

/** A local Ollama server's address. */
export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434';

/** Environment variables that may hold a key for Ollama Cloud or an authenticating proxy. */
export const OLLAMA_API_KEY_ENV_VARS: readonly string[] = ['OLLAMA_API_KEY'];

/** Settings of {@link createOllamaProvider}. */
export interface OllamaSettings extends AdapterSettings {
  /**
   * `keep_alive` on every request: how long the model stays loaded afterwards (`"10m"`, seconds,
   * `-1` to keep it, `0` to unload at once). Ollama's default is 5 minutes.
   */
  keepAlive?: string | number;
}

/**
 * Creates an {@link LlmProvider} for Ollama's native chat API (`POST /api/chat`, NDJSON streaming).
 * No key is needed for a local server; a key passed as `apiKey` or found in `OLLAMA_API_KEY` is sent
 * as `Authorization: Bearer` (Ollama Cloud at `https://ollama.com`, or a proxy).
 *
 * @example
 * const ollama = createOllamaProvider({ keepAlive: '10m' });
 * const response = await ollama.createMessage({
 *   model: 'qwen3:8b',
 *   messages: [{ role: 'user', content: 'Hello' }],
 *   thinking: { type: 'enabled', budgetTokens: 2048 },
 * });
 */
export function createOllamaProvider(settings: OllamaSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? 'ollama';
  const baseUrl = (settings.baseURL ?? OLLAMA_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const fetch: FetchFunction = createProviderFetch({
    providerId,
    ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
  });
  const retry = settings.retry ?? {};

  /** The optional key, read when a request is made. */
  function authHeaders(): { headers: Record<string, string>; secrets: string[] } {
    if (settings.noApiKey === true) return { headers: {}, secrets: [] };
    const env = settings.env ?? process.env;
    const key =
      settings.apiKey?.trim() ||
      (settings.apiKeyEnvVars ?? OLLAMA_API_KEY_ENV_VARS).map((name) => env[name]?.trim()).find((value) => !!value);
    return key ? { headers: { authorization: `Bearer ${key}` }, secrets: [key] } : { headers: {}, secrets: [] };
  }

  async function send(
    url: string,
    model: string,
    body: unknown,
    signal: AbortSignal,
    options: LlmCallOptions,
  ): Promise<Response> {
    const auth = authHeaders();
    try {
      return await sendRequest({
        providerId,
        url,
        headers: { ...settings.headers, ...options.headers, ...auth.headers },
        ...(body === undefined ? { method: 'GET' } : { body }),
        signal,
        fetch,
        errorRules: OLLAMA_ERROR_RULES,
        knownSecrets: auth.secrets,
      });
    } catch (error) {
      throw refineOllamaError(toLlmError(error, { providerId, url, signal, rules: OLLAMA_ERROR_RULES }), model);
    }
  }

  /**
   * The streaming `/api/chat` on undici `request()`: the body arrives as raw byte chunks, with none
   * of the per-read cost of a WHATWG `ReadableStream`.
   */
  async function sendStream(
    url: string,
    model: string,
    body: unknown,
    signal: AbortSignal,
    options: LlmCallOptions,
  ): Promise<AsyncIterable<Uint8Array>> {
    const auth = authHeaders();
    try {
      const response = await sendStreamRequest({
        providerId,
        url,
        headers: { ...settings.headers, ...options.headers, ...auth.headers },
        body,
        signal,
        ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
        errorRules: OLLAMA_ERROR_RULES,
        knownSecrets: auth.secrets,
      });
      return response.body;
    } catch (error) {
      throw refineOllamaError(toLlmError(error, { providerId, url, signal, rules: OLLAMA_ERROR_RULES }), model);
    }
  }

  function bodyFor(request: LlmRequest, stream: boolean) {
    return buildOllamaRequestBody(request, {
      providerId,
      stream,
      ...(settings.keepAlive === undefined ? {} : { keepAlive: settings.keepAlive }),
    });
  }

  function callControls(options: LlmCallOptions) {
    return {
      ...retry,
      providerId,
      rules: OLLAMA_ERROR_RULES,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(settings.stall === undefined ? {} : { stall: settings.stall }),
    };
  }

  function streamMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
    const body = bodyFor(request, true);
    return streamWithRetries(async (_attempt, signal) => {
      const stream = await sendStream(`${baseUrl}/api/chat`, request.model, body, signal, options);
      // One array of events per network chunk: streamWithRetries hands them out one by one.
      return readOllamaStream(stream, new OllamaResponseMapper({ providerId, model: request.model }));
    }, callControls(options));
  }

  function createMessage(request: LlmRequest, options: LlmCallOptions = {}): Promise<AssistantResponse> {
    const body = bodyFor(request, false);
    // One JSON body: stall timers would bound the whole generation (and a cold model load), so only
    // the HTTP agent's timeouts and the caller's signal apply.
    return assembleMessage(
      streamWithRetries(
        async function* (_attempt, signal) {
          const response = await send(`${baseUrl}/api/chat`, request.model, body, signal, options);
          const mapper = new OllamaResponseMapper({ providerId, model: request.model });
          const events = mapper.push(parseBody(await readText(response, providerId), providerId));
          yield mapper.end(false, events);
        },
        { ...callControls(options), stall: false },
      ),
    );
  }

  async function listModels(options: LlmCallOptions = {}): Promise<ModelInfo[]> {
    return withRetries(
      async (_attempt, signal) => {
        const response = await send(`${baseUrl}/api/tags`, '', undefined, signal, options);
        const tags = ollamaTagsSchema.parse(JSON.parse(await readText(response, providerId)));
        return (tags.models ?? []).map((model) => ({ id: model.name }));
      },
      {
        ...retry,
        providerId,
        rules: OLLAMA_ERROR_RULES,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    );
  }

  return {
    id: providerId,
    adapter: 'ollama',
    name: settings.providerName ?? 'Ollama',
    createMessage,
    streamMessage,
    listModels,
  };
}

async function readText(response: Response, providerId: string): Promise<string> {
  return response.text().catch((error: unknown) => {
    throw toLlmError(error, { providerId });
  });
}

/** The whole reply; a body that is not complete JSON was cut in transit. */
function parseBody(text: string, providerId: string): OllamaChatResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new NetworkError({
      providerId,
      message: `Provider "${providerId}" sent a reply that is not complete JSON (${text.length} characters); the connection was probably cut.`,
    });
  }
  const parsed = ollamaChatResponseSchema.safeParse(json);
  if (!parsed.success) {
    throw new NetworkError({
      providerId,
      message: `Provider "${providerId}" sent a reply of an unexpected shape: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
    });
  }
  return parsed.data;
}
