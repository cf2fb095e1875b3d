import type { AdapterSettings } from '../../shared/adapter-settings.js';
import { assembleMessage } from '../../shared/message-assembler.js';
import { createProviderFetch, type FetchFunction } from '../../shared/provider-fetch.js';
import { resolveApiKey } from '../../shared/resolve-api-key.js';
import { withRetries } from '../../shared/retry-policy.js';
import { sendRequest } from '../../shared/send-request.js';
import { sendStreamRequest } from '../../shared/send-stream-request.js';
import { streamWithRetries } from '../../shared/stream-with-retries.js';
import { toLlmError } from '../../shared/to-llm-error.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { parseGeminiChunk, readGeminiStream } from './gemini-chunk.js';
import { GEMINI_ERROR_RULES, refineGeminiError } from './gemini-errors.js';
import { buildGeminiRequestBody } from './gemini-request.js';
import { GeminiResponseMapper } from './gemini-stream.js';
import type { GeminiToolSchemaMode } from './gemini-tools.js';
import { type GeminiRequestBody, geminiModelListSchema, vertexModelListSchema } from './gemini-wire.js';

/** The Gemini API's base URL. */
export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/** Environment variables that may hold a Gemini API key, checked in order. */
export const GEMINI_API_KEY_ENV_VARS: readonly string[] = [
  'GEMINI_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GOOGLE_API_KEY',
];

/**
 * Environment variable read for a Vertex AI OAuth access token when none is passed (Google defines
 * no standard one; `gcloud auth print-access-token` prints a token valid for about an hour).
 */
export const VERTEX_ACCESS_TOKEN_ENV_VARS: readonly string[] = ['GOOGLE_VERTEX_ACCESS_TOKEN'];

/** Vertex AI mode: the same protocol on a Google Cloud project, authenticated with an OAuth token. */
export interface GeminiVertexSettings {
  project: string;
  /** A region such as `us-central1`, or `global` for the global endpoint. */
  location: string;
  /**
   * The OAuth access token, or a function returning a fresh one (tokens expire, so a function that
   * asks google-auth-library is best). Default: {@link AdapterSettings.apiKey}, then
   * `apiKeyEnvVars` (default `GOOGLE_VERTEX_ACCESS_TOKEN`).
   */
  accessToken?: string | (() => string | Promise<string>);
}

/** Settings of {@link createGeminiProvider}. */
export interface GeminiSettings extends AdapterSettings {
  /** Use Vertex AI instead of the Gemini API. */
  vertex?: GeminiVertexSettings;
  /** How tool schemas are sent; see {@link GeminiToolSchemaMode}. Default `openapi`. */
  toolSchema?: GeminiToolSchemaMode;
}

/**
 * The Vertex AI base URL for a project and location: `https://{location}-aiplatform.googleapis.com/v1/
 * projects/{project}/locations/{location}/publishers/google`, and `aiplatform.googleapis.com` for the
 * `global` location.
 *
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations#use_the_global_endpoint
 */
export function vertexBaseUrl(project: string, location: string): string {
  const host = location === 'global' ? 'aiplatform.googleapis.com' : `${location}-aiplatform.googleapis.com`;
  return `https://${host}/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}/publishers/google`;
}

/**
 * Creates an {@link LlmProvider} for Google Gemini over its own REST protocol (`generateContent` and
 * `streamGenerateContent?alt=sse`), on the Gemini API (key in `x-goog-api-key`) or Vertex AI
 * (`vertex: {project, location}`, OAuth token as `Authorization: Bearer`). Keys are read when a
 * request is made. Thought signatures are kept in `providerMetadata.gemini` and sent back unchanged.
 *
 * @example
 * const gemini = createGeminiProvider({ apiKey: process.env.GEMINI_API_KEY });
 * const response = await gemini.createMessage({
 *   model: 'gemini-2.5-flash',
 *   messages: [{ role: 'user', content: 'Hello' }],
 *   thinking: { type: 'effort', effort: 'low' },
 * });
 *
 * @example
 * const vertex = createGeminiProvider({ vertex: { project: 'my-project', location: 'global', accessToken: getToken } });
 */
export function createGeminiProvider(settings: GeminiSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? 'gemini';
  const vertex = settings.vertex;
  const baseUrl = (
    settings.baseURL ??
    (vertex === undefined ? GEMINI_DEFAULT_BASE_URL : vertexBaseUrl(vertex.project, vertex.location))
  ).replace(/\/+$/, '');
  const fetch: FetchFunction = createProviderFetch({
    providerId,
    ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
  });
  const retry = settings.retry ?? {};

  async function authHeaders(): Promise<{ headers: Record<string, string>; secrets: string[] }> {
    if (settings.noApiKey === true) return { headers: {}, secrets: [] };
    if (vertex !== undefined) {
      const token =
        typeof vertex.accessToken === 'function'
          ? await vertex.accessToken()
          : (vertex.accessToken ??
            resolveApiKey({
              providerId,
              apiKey: settings.apiKey,
              envVarNames: settings.apiKeyEnvVars ?? VERTEX_ACCESS_TOKEN_ENV_VARS,
              optionName: 'vertex.accessToken',
              ...(settings.env === undefined ? {} : { env: settings.env }),
            }));
      return { headers: { authorization: `Bearer ${token}` }, secrets: [token] };
    }
    const key = resolveApiKey({
      providerId,
      apiKey: settings.apiKey,
      envVarNames: settings.apiKeyEnvVars ?? GEMINI_API_KEY_ENV_VARS,
      ...(settings.env === undefined ? {} : { env: settings.env }),
    });
    return { headers: { 'x-goog-api-key': key }, secrets: [key] };
  }

  function modelUrl(request: LlmRequest, stream: boolean): string {
    const model = encodeURIComponent(request.model.replace(/^models\//, ''));
    return `${baseUrl}/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
  }

  /** `generateContent`: one JSON body, read through fetch. */
  async function post(
    request: LlmRequest,
    body: GeminiRequestBody,
    signal: AbortSignal,
    options: LlmCallOptions,
  ): Promise<{ response: Response; secrets: string[] }> {
    const auth = await authHeaders();
    const url = modelUrl(request, false);
    try {
      const response = await sendRequest({
        providerId,
        url,
        headers: { ...settings.headers, ...options.headers, ...auth.headers },
        body,
        signal,
        fetch,
        errorRules: GEMINI_ERROR_RULES,
        knownSecrets: auth.secrets,
      });
      return { response, secrets: auth.secrets };
    } catch (error) {
      throw refineGeminiError(toLlmError(error, { providerId, url, signal, rules: GEMINI_ERROR_RULES }));
    }
  }

  /**
   * `streamGenerateContent?alt=sse` on undici `request()`: the body arrives as raw byte chunks, with
   * none of the per-read cost of a WHATWG `ReadableStream`.
   */
  async function postStream(
    request: LlmRequest,
    body: GeminiRequestBody,
    signal: AbortSignal,
    options: LlmCallOptions,
  ): Promise<{ body: AsyncIterable<Uint8Array>; secrets: string[] }> {
    const auth = await authHeaders();
    const url = modelUrl(request, true);
    try {
      const response = await sendStreamRequest({
        providerId,
        url,
        headers: { ...settings.headers, ...options.headers, ...auth.headers },
        body,
        signal,
        ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
        errorRules: GEMINI_ERROR_RULES,
        knownSecrets: auth.secrets,
      });
      return { body: response.body, secrets: auth.secrets };
    } catch (error) {
      throw refineGeminiError(toLlmError(error, { providerId, url, signal, rules: GEMINI_ERROR_RULES }));
    }
  }

  function buildBody(request: LlmRequest): GeminiRequestBody {
    return buildGeminiRequestBody(request, {
      providerId,
      vertex: vertex !== undefined,
      ...(settings.toolSchema === undefined ? {} : { schemaMode: settings.toolSchema }),
    });
  }

  function streamMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
    const body = buildBody(request);
    return streamWithRetries(
      async (_attempt, signal) => {
        const { body: stream, secrets } = await postStream(request, body, signal, options);
        // One array of events per network chunk: streamWithRetries hands them out one by one.
        return readGeminiStream(stream, new GeminiResponseMapper({ providerId, knownSecrets: secrets }), providerId);
      },
      { ...retry, providerId, rules: GEMINI_ERROR_RULES, ...callControls(options) },
    );
  }

  function createMessage(request: LlmRequest, options: LlmCallOptions = {}): Promise<AssistantResponse> {
    const body = buildBody(request);
    // One JSON body: stall timers would bound the whole generation, so only the HTTP agent's
    // headers/body timeouts and the caller's signal apply.
    return assembleMessage(
      streamWithRetries(
        async function* (_attempt, signal) {
          const { response, secrets } = await post(request, body, signal, options);
          const mapper = new GeminiResponseMapper({ providerId, knownSecrets: secrets });
          const events = mapper.push(parseGeminiChunk(await readText(response, providerId), providerId));
          yield mapper.end(false, events);
        },
        { ...retry, providerId, rules: GEMINI_ERROR_RULES, ...callControls(options), stall: false },
      ),
    );
  }

  function callControls(options: LlmCallOptions): { signal?: AbortSignal; stall?: typeof settings.stall } {
    return {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(settings.stall === undefined ? {} : { stall: settings.stall }),
    };
  }

  async function listModels(options: LlmCallOptions = {}): Promise<ModelInfo[]> {
    return withRetries(
      async (_attempt, signal) => {
        const auth = await authHeaders();
        const headers = { ...settings.headers, ...options.headers, ...auth.headers };
        return vertex === undefined
          ? listGeminiModels(baseUrl, headers, signal, auth.secrets)
          : listVertexModels(new URL(baseUrl).origin, vertex.project, headers, signal, auth.secrets);
      },
      {
        ...retry,
        providerId,
        rules: GEMINI_ERROR_RULES,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
    );
  }

  async function getJson(url: string, headers: Record<string, string>, signal: AbortSignal, secrets: string[]) {
    try {
      const response = await sendRequest({
        providerId,
        url,
        method: 'GET',
        headers,
        signal,
        fetch,
        errorRules: GEMINI_ERROR_RULES,
        knownSecrets: secrets,
      });
      return JSON.parse(await readText(response, providerId)) as unknown;
    } catch (error) {
      throw refineGeminiError(toLlmError(error, { providerId, url, signal, rules: GEMINI_ERROR_RULES }));
    }
  }

  async function listGeminiModels(
    base: string,
    headers: Record<string, string>,
    signal: AbortSignal,
    secrets: string[],
  ): Promise<ModelInfo[]> {
    const models: ModelInfo[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_MODEL_PAGES; page += 1) {
      const query = `pageSize=1000${pageToken === undefined ? '' : `&pageToken=${encodeURIComponent(pageToken)}`}`;
      const list = geminiModelListSchema.parse(await getJson(`${base}/models?${query}`, headers, signal, secrets));
      for (const model of list.models ?? []) {
        const methods = model.supportedGenerationMethods;
        if (methods !== undefined && !methods.includes('generateContent')) continue;
        models.push({
          id: model.name.replace(/^models\//, ''),
          ...(model.displayName === undefined ? {} : { name: model.displayName }),
          ...(model.inputTokenLimit === undefined ? {} : { contextWindow: model.inputTokenLimit }),
          ...(model.outputTokenLimit === undefined ? {} : { maxOutputTokens: model.outputTokenLimit }),
        });
      }
      pageToken = list.nextPageToken;
      if (pageToken === undefined || pageToken === '') break;
    }
    return models;
  }

  /** Vertex lists publisher models on `v1beta1/publishers/google/models`, billed to the project. */
  async function listVertexModels(
    origin: string,
    project: string,
    headers: Record<string, string>,
    signal: AbortSignal,
    secrets: string[],
  ): Promise<ModelInfo[]> {
    const models: ModelInfo[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_MODEL_PAGES; page += 1) {
      const query = `pageSize=100${pageToken === undefined ? '' : `&pageToken=${encodeURIComponent(pageToken)}`}`;
      const url = `${origin}/v1beta1/publishers/google/models?${query}`;
      const json = await getJson(url, { ...headers, 'x-goog-user-project': project }, signal, secrets);
      const list = vertexModelListSchema.parse(json);
      for (const model of list.publisherModels ?? []) models.push({ id: model.name.split('/').at(-1) ?? model.name });
      pageToken = list.nextPageToken;
      if (pageToken === undefined || pageToken === '') break;
    }
    return models;
  }

  return {
    id: providerId,
    adapter: 'gemini',
    name: settings.providerName ?? (vertex === undefined ? 'Google Gemini' : 'Google Vertex AI'),
    createMessage,
    streamMessage,
    listModels,
  };
}

const MAX_MODEL_PAGES = 50;

/** The whole body; a body cut short is a network failure (retried when nothing was shown yet). */
async function readText(response: Response, providerId: string): Promise<string> {
  return response.text().catch((error: unknown) => {
    throw toLlmError(error, { providerId });
  });
}
