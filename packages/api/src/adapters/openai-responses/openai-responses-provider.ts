import OpenAI from 'openai';
import type { AdapterSettings } from '../../shared/adapter-settings.js';
import { assembleMessage } from '../../shared/message-assembler.js';
import { createProviderFetch } from '../../shared/provider-fetch.js';
import { readServerSentEvents } from '../../shared/read-event-stream.js';
import { resolveApiKey } from '../../shared/resolve-api-key.js';
import { withRetries } from '../../shared/retry-policy.js';
import { streamWithRetries } from '../../shared/stream-with-retries.js';
import { NetworkError } from '../../spec/llm-error-classes.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { buildOpenAIResponsesRequest, type OpenAIReasoningSummary } from './build-openai-responses-request.js';
import { OpenAIResponsesStreamMapper } from './map-openai-responses-stream.js';
import { OPENAI_RESPONSES_ERROR_RULES } from './openai-responses-errors.js';
import { OPENAI_RESPONSES_METADATA_KEY } from './openai-responses-metadata.js';
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
 * Azure OpenAI (`authStyle: 'api-key'`) and other compatible servers. The `openai` SDK builds and
 * sends the request (auth, base URL, query, typed HTTP errors, with its own retries off: ours
 * honour `retry-after` and stop once content has streamed); the SSE body is read raw and decoded
 * in one pass (`readServerSentEvents`), not through the SDK's slower stream iterator.
 * `createMessage` assembles the same stream, so both give the same message. The key is read when a
 * request is made. Ambient `OPENAI_*` variables other than the key (`OPENAI_BASE_URL`,
 * `OPENAI_ORG_ID`, `OPENAI_PROJECT_ID`, `OPENAI_CUSTOM_HEADERS`) are ignored, so nothing meant for
 * one server leaks to another: pass `baseURL` and `headers`.
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
  const fetch = createProviderFetch({
    providerId,
    ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
  });
  let cached: { key: string; client: OpenAI } | undefined;

  const client = (): OpenAI => {
    const key = settings.noApiKey
      ? ''
      : resolveApiKey({
          providerId,
          apiKey: settings.apiKey,
          envVarNames: settings.apiKeyEnvVars ?? DEFAULT_ENV_VARS,
          ...(settings.env === undefined ? {} : { env: settings.env }),
        });
    if (cached?.key === key) return cached.client;
    const created = new OpenAI({
      apiKey: key === '' ? 'no-key' : key,
      baseURL,
      organization: null,
      project: null,
      maxRetries: 0,
      fetch,
      defaultHeaders: { ...ignoredEnvironmentHeaders(), ...authHeaders(settings, key), ...settings.headers },
      ...(settings.query === undefined ? {} : { defaultQuery: settings.query }),
    });
    cached = { key, client: created };
    return created;
  };

  const retry = { providerId, rules: OPENAI_RESPONSES_ERROR_RULES, ...settings.retry };

  const provider: LlmProvider = {
    id: providerId,
    name: settings.providerName ?? 'OpenAI Responses',

    streamMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
      const declaredToolNames = new Set((request.tools ?? []).map((tool) => tool.name));
      return streamWithRetries(
        async function* open(_attempt, signal) {
          const body = buildOpenAIResponsesRequest(request, {
            store: settings.store ?? false,
            reasoningSummary: settings.reasoningSummary,
            providerId,
          });
          const response = await client()
            .responses.create({ ...body, stream: true } as unknown as OpenAI.Responses.ResponseCreateParamsStreaming, {
              signal,
              ...(options.headers === undefined ? {} : { headers: options.headers }),
            })
            .asResponse();
          if (response.body === null) {
            throw new NetworkError({ providerId, message: `Provider "${providerId}" answered with an empty body.` });
          }
          // One pass, no generator in between: each SSE event is mapped and its stream events yielded.
          const mapper = new OpenAIResponsesStreamMapper({ providerId, declaredToolNames });
          const out: StreamEvent[] = [];
          for await (const event of readServerSentEvents(response.body)) {
            const done = mapper.handle(event, out);
            for (const produced of out) yield produced;
            out.length = 0;
            if (done) return;
          }
          mapper.finish(out);
          yield* out;
        },
        {
          ...retry,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(settings.stall === undefined ? {} : { stall: settings.stall }),
        },
      );
    },

    createMessage(request, options = {}) {
      return assembleMessage(provider.streamMessage(request, options));
    },

    listModels(options: LlmCallOptions = {}): Promise<ModelInfo[]> {
      return withRetries(
        async (_attempt, signal) => {
          const response = await client()
            .models.list({ signal, ...(options.headers === undefined ? {} : { headers: options.headers }) })
            .asResponse();
          return toModelInfos(await response.json());
        },
        { ...retry, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
    },
  };
  return provider;
}

function authHeaders(settings: OpenAIResponsesSettings, key: string): Record<string, string | null> {
  if (settings.noApiKey) return { Authorization: null };
  return settings.authStyle === 'api-key' ? { 'api-key': key, Authorization: null } : {};
}

/** The SDK adds `OPENAI_CUSTOM_HEADERS` to every request whatever the server: unset each of them. */
function ignoredEnvironmentHeaders(): Record<string, null> {
  const headers: Record<string, null> = {};
  for (const line of (process.env.OPENAI_CUSTOM_HEADERS ?? '').split('\n')) {
    const name = line.slice(0, line.indexOf(':')).trim();
    if (line.includes(':') && name !== '') headers[name] = null;
  }
  return headers;
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
