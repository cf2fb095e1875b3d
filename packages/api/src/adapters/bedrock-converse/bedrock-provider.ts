import { linkAbortController } from '../../shared/abort.js';
import type { AdapterSettings } from '../../shared/adapter-settings.js';
import type { BatchSource } from '../../shared/batch-source.js';
import { createChunkBatchSource } from '../../shared/chunk-batch-source.js';
import { getSharedHttpAgent } from '../../shared/http-agent.js';
import { createProviderFetch } from '../../shared/provider-fetch.js';
import type { ByteStream } from '../../shared/read-event-stream.js';
import { readJsonBody } from '../../shared/read-json-body.js';
import { withRetries } from '../../shared/retry-policy.js';
import { rememberSecret } from '../../shared/secret-registry.js';
import { sendRequest } from '../../shared/send-request.js';
import { type StreamResponse, sendStreamRequest } from '../../shared/send-stream-request.js';
import { streamWithRetries } from '../../shared/stream-with-retries.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { AssistantResponse } from '../../spec/response.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import {
  type AwsCredentials,
  type AwsCredentialsProvider,
  authenticateBedrockRequest,
  type BedrockAuth,
  isSigV4Loaded,
  loadSigV4,
  resolveBedrockAuth,
  resolveBedrockRegion,
} from './bedrock-auth.js';
import { withBedrockErrorTypeDispatcher } from './bedrock-error-type-dispatcher.js';
import { BEDROCK_ERROR_RULES, withBedrockErrorType } from './bedrock-errors.js';
import { createEventStreamDecoder, type EventStreamFrameHandler } from './bedrock-event-stream.js';
import { BEDROCK_PROTOCOL_ID, buildBedrockRequest } from './bedrock-request.js';
import { mapConverseResponse } from './bedrock-response.js';
import { type BedrockStreamContext, createBedrockStreamMapper } from './bedrock-stream.js';
import { converseResponseSchema, listFoundationModelsSchema } from './bedrock-wire.js';

/** Settings of {@link createBedrockConverseProvider}. */
export interface BedrockConverseSettings extends AdapterSettings {
  /** AWS region; default `AWS_REGION`, then `AWS_DEFAULT_REGION`, read when a request is made. */
  region?: string;
  /**
   * AWS credentials for SigV4, or a function returning them per request. Default: a Bedrock API key
   * (`apiKey`, else `AWS_BEARER_TOKEN_BEDROCK`), else `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` /
   * `AWS_SESSION_TOKEN`.
   */
  credentials?: AwsCredentials | AwsCredentialsProvider;
  /** Base URL of the control plane for `listModels`; default `https://bedrock.{region}.amazonaws.com`. */
  controlPlaneBaseURL?: string;
  /**
   * Send `cachePoint` markers at the system prompt's cache boundary and after the tools. Default:
   * only for model ids known to support prompt caching (Bedrock rejects markers for others).
   */
  promptCaching?: boolean;
}

/**
 * An {@link LlmProvider} for Amazon Bedrock's Converse API over plain HTTP: `POST
 * /model/{modelId}/converse-stream` (a binary `application/vnd.amazon.eventstream` body) and
 * `/converse`, authenticated with a Bedrock API key (bearer) or SigV4, with retries, stall timers
 * and Bedrock's errors classified. The model id is URI-encoded, so ARNs and inference profiles work.
 *
 * @example
 * const bedrock = createBedrockConverseProvider({ region: 'us-east-1' });
 * for await (const event of bedrock.streamMessage({
 *   model: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
 *   maxOutputTokens: 1024,
 *   messages: [{ role: 'user', content: 'Hello' }],
 * })) {
 *   if (event.type === 'text-delta') process.stdout.write(event.delta);
 * }
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function createBedrockConverseProvider(settings: BedrockConverseSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? BEDROCK_PROTOCOL_ID;
  const authSettings = {
    providerId,
    ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
    ...(settings.apiKeyEnvVars === undefined ? {} : { apiKeyEnvVars: settings.apiKeyEnvVars }),
    ...(settings.noApiKey === undefined ? {} : { noApiKey: settings.noApiKey }),
    ...(settings.credentials === undefined ? {} : { credentials: settings.credentials }),
    ...(settings.region === undefined ? {} : { region: settings.region }),
    ...(settings.env === undefined ? {} : { env: settings.env }),
  };
  const region = () => resolveBedrockRegion(authSettings);
  // Start loading the signer now (not at package import): the first request then does not wait for it.
  loadSigV4().catch(() => {});
  const fetch = withBedrockErrorType(
    createProviderFetch({
      providerId,
      ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
    }),
  );
  const retry = { providerId, rules: BEDROCK_ERROR_RULES, ...settings.retry };

  const runtimeUrl = (path: string) =>
    new URL(`${trimSlash(settings.baseURL ?? `https://bedrock-runtime.${region()}.amazonaws.com`)}${path}`);

  /** Resolves the credentials and authenticates (signs the exact body string that is sent). */
  async function authenticate(url: URL, init: SendInit) {
    const auth = await resolveBedrockAuth(authSettings);
    const headers = lowerCaseNames({
      ...settings.headers,
      ...init.callHeaders,
      accept: init.accept,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    });
    const method = init.body === undefined ? 'GET' : 'POST';
    const signed = await authenticateBedrockRequest(
      { method, url, headers, ...(init.body === undefined ? {} : { body: init.body }) },
      auth,
      region,
    );
    return { method, signed, knownSecrets: secretsOf(auth) };
  }

  async function send(url: URL, init: SendInit): Promise<Response> {
    const { method, signed, knownSecrets } = await authenticate(url, init);
    return sendRequest({
      providerId,
      url: url.href,
      method,
      headers: signed,
      ...(init.body === undefined ? {} : { body: init.body }),
      signal: init.signal,
      fetch,
      errorRules: BEDROCK_ERROR_RULES,
      knownSecrets,
    });
  }

  /**
   * The streaming call: undici `request()` (no WHATWG `Response` or `ReadableStream` per chunk), on
   * a dispatcher that copies `x-amzn-ErrorType` into error bodies, as {@link send}'s fetch does.
   */
  async function sendStream(url: URL, init: SendInit & { body: string }): Promise<StreamResponse> {
    const { method, signed, knownSecrets } = await authenticate(url, init);
    return sendStreamRequest({
      providerId,
      url: url.href,
      method,
      headers: signed,
      body: init.body,
      signal: init.signal,
      dispatcher: withBedrockErrorTypeDispatcher(settings.dispatcher ?? getSharedHttpAgent()),
      errorRules: BEDROCK_ERROR_RULES,
      knownSecrets,
    });
  }

  const modelPath = (model: string, action: 'converse' | 'converse-stream') =>
    `/model/${encodeURIComponent(model)}/${action}`;

  const provider: LlmProvider = {
    id: providerId,
    adapter: 'bedrock-converse',
    name: settings.providerName ?? 'Amazon Bedrock',

    streamMessage(request: LlmRequest, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
      if (!isSigV4Loaded()) {
        // The signer is still loading (the first calls after creation): wait for it before the first
        // attempt, so its import never counts against the first-byte stall timer.
        return (async function* waitForSigner(): AsyncGenerator<StreamEvent> {
          await loadSigV4().catch(() => {});
          yield* provider.streamMessage(request, options);
        })();
      }
      return streamWithRetries(
        async (_attempt, signal) => {
          const body = JSON.stringify(buildBedrockRequest(request, { promptCaching: settings.promptCaching }));
          const response = await sendStream(runtimeUrl(modelPath(request.model, 'converse-stream')), {
            body,
            signal,
            callHeaders: options.headers,
            accept: 'application/vnd.amazon.eventstream',
          });
          const requestId = response.headers['x-amzn-requestid'];
          return mapEventStreamBody(response.body, {
            providerId,
            model: request.model,
            requestId: Array.isArray(requestId) ? requestId[0] : requestId,
          });
        },
        { ...retry, ...(options.signal === undefined ? {} : { signal: options.signal }), ...stallOption(settings) },
      );
    },

    createMessage(request: LlmRequest, options: LlmCallOptions = {}): Promise<AssistantResponse> {
      return withRetries(
        async (_attempt, attemptSignal) => {
          const link = linkAbortController(attemptSignal);
          try {
            const body = JSON.stringify(buildBedrockRequest(request, { promptCaching: settings.promptCaching }));
            const response = await send(runtimeUrl(modelPath(request.model, 'converse')), {
              body,
              signal: link.controller.signal,
              callHeaders: options.headers,
              accept: 'application/json',
            });
            const json = await readJsonBody(response, link.controller, settings, providerId);
            const parsed = converseResponseSchema.safeParse(json);
            if (!parsed.success) {
              throw createLlmError({
                reason: 'server',
                providerId,
                cause: parsed.error,
                message: `Provider "${providerId}" sent a Converse response of an unexpected shape.`,
              });
            }
            return mapConverseResponse(parsed.data, {
              model: request.model,
              requestId: response.headers.get('x-amzn-requestid') ?? undefined,
            });
          } finally {
            link.dispose();
          }
        },
        { ...retry, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
    },

    listModels(options: LlmCallOptions = {}): Promise<ModelInfo[]> {
      return withRetries(
        async (_attempt, signal) => {
          const base = settings.controlPlaneBaseURL ?? `https://bedrock.${region()}.amazonaws.com`;
          const url = new URL(`${trimSlash(base)}/foundation-models`);
          url.searchParams.set('byOutputModality', 'TEXT');
          const response = await send(url, { signal, callHeaders: options.headers, accept: 'application/json' });
          const parsed = listFoundationModelsSchema.safeParse(await response.json());
          if (!parsed.success) {
            throw createLlmError({
              reason: 'server',
              providerId,
              cause: parsed.error,
              message: `Provider "${providerId}" sent a model list of an unexpected shape.`,
            });
          }
          return (parsed.data.modelSummaries ?? []).map((model) => ({
            id: model.modelId,
            ...(model.modelName === undefined ? {} : { name: model.modelName }),
          }));
        },
        { ...retry, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
    },
  };
  return provider;
}

interface SendInit {
  body?: string;
  signal: AbortSignal;
  callHeaders?: Record<string, string> | undefined;
  accept: string;
}

/**
 * One ConverseStream body as batches of stream events, one array per network chunk: frames are
 * decoded and mapped synchronously inside the body's `data` callback (a push source for
 * `streamWithRetries`), so a chunk costs no async hop of its own however many events it holds.
 * A chunk that completed a frame but produced no event (Bedrock sends no keep-alives, but an event
 * type this adapter does not show, such as one added later, is one in effect) yields the
 * `KEEP_ALIVE` batch, which restarts the stall timers.
 * The body is always read to its end, even after the terminal event, so the keep-alive connection
 * goes back to the pool (the retry layer drains it in the background). Events decoded before a
 * corrupt or malformed frame are delivered before its error.
 */
function mapEventStreamBody(body: ByteStream, context: BedrockStreamContext): BatchSource {
  return createChunkBatchSource(body, () => {
    const frames = createEventStreamDecoder(context.providerId);
    const mapper = createBedrockStreamMapper(context);
    let batch: StreamEvent[] = [];
    let framed = false;
    const onFrame: EventStreamFrameHandler = (headers, bytes, start, end) => {
      framed = true;
      mapper.push(headers, bytes.toString('utf8', start, end), batch);
    };
    return {
      chunk(chunk, out) {
        // After the terminal event the rest of the body is read (so the connection is reused) and dropped.
        if (mapper.finished) return false;
        batch = out;
        framed = false;
        frames.push(chunk as Uint8Array, onFrame);
        return framed;
      },
      end(out) {
        if (mapper.finished) return;
        frames.end();
        mapper.end(out);
      },
    };
  });
}

function stallOption(settings: BedrockConverseSettings) {
  return settings.stall === undefined ? {} : { stall: settings.stall };
}

function secretsOf(auth: BedrockAuth): string[] {
  const secrets =
    auth.type === 'bearer'
      ? [auth.token]
      : auth.type === 'sigv4'
        ? [auth.credentials.secretAccessKey, ...(auth.credentials.sessionToken ? [auth.credentials.sessionToken] : [])]
        : [];
  for (const secret of secrets) rememberSecret(secret);
  return secrets;
}

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  return result;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
