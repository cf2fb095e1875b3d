import {
  type AdapterSettings,
  assembleMessage,
  createUsage,
  type LlmProvider,
  type LlmRequest,
  type Message,
  type ModelInfo,
  type StreamEvent,
} from '@boxagnts/api';
import {
  createProviderFetch,
  readNdjson,
  resolveApiKey,
  sendRequest,
  streamWithRetries,
  systemPromptText,
} from '@boxagnts/api/adapter-kit';

/** Settings of the Acme adapter: the common adapter settings plus Acme's own. */
export interface AcmeChatSettings extends AdapterSettings {
  /** Acme's "creativity" dial, sent as `options.creativity` on every request. */
  creativity?: number;
}

/** One line of Acme's NDJSON stream (Acme happens to speak Ollama's `/api/chat` wire format). */
interface AcmeChunk {
  message?: { content?: string };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
}

/**
 * A third-party protocol adapter built only from `@boxagnts/api`'s public building blocks: the key
 * is resolved when a request is made (`resolveApiKey`), requests go through `sendRequest` (no
 * cross-origin redirects, vendor errors classified), and `streamWithRetries` supplies retries,
 * stall timers and the stream contract. Text only, to keep the example short.
 *
 * @example
 * registry.registerAdapter('acme:chat', createAcmeChatProvider);
 */
export function createAcmeChatProvider(settings: AcmeChatSettings): LlmProvider {
  const providerId = settings.providerId ?? 'acme';
  const baseURL = (settings.baseURL ?? 'https://api.acme.example').replace(/\/+$/, '');
  const fetch = createProviderFetch({
    providerId,
    ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
  });

  function streamMessage(request: LlmRequest, options: { signal?: AbortSignal } = {}): AsyncIterable<StreamEvent> {
    return streamWithRetries(
      async function* open(_attempt, signal) {
        const key = resolveApiKey({
          providerId,
          apiKey: settings.apiKey,
          envVarNames: settings.apiKeyEnvVars ?? ['ACME_API_KEY'],
          ...(settings.env === undefined ? {} : { env: settings.env }),
        });
        const response = await sendRequest({
          providerId,
          url: `${baseURL}/api/chat`,
          headers: { ...settings.headers, authorization: `Bearer ${key}` },
          body: toAcmeBody(request, settings.creativity),
          signal,
          fetch,
          knownSecrets: [key],
        });
        if (response.body === null) return;
        yield { type: 'message-start', model: request.model };
        yield { type: 'text-start', blockId: 'text-0' };
        for await (const value of readNdjson(response.body)) {
          const chunk = value as AcmeChunk;
          const delta = chunk.message?.content ?? '';
          if (delta !== '') yield { type: 'text-delta', blockId: 'text-0', delta };
          if (chunk.done === true) {
            yield { type: 'text-end', blockId: 'text-0' };
            yield {
              type: 'message-end',
              finishReason: { unified: chunk.done_reason === 'length' ? 'length' : 'stop', raw: chunk.done_reason },
              usage: createUsage({ inputTotal: chunk.prompt_eval_count, outputTotal: chunk.eval_count }),
            };
            return;
          }
        }
      },
      { providerId, ...settings.retry, ...(options.signal === undefined ? {} : { signal: options.signal }) },
    );
  }

  return {
    id: providerId,
    name: settings.providerName ?? 'Acme',
    streamMessage,
    createMessage: (request, options) => assembleMessage(streamMessage(request, options)),
    async listModels(): Promise<ModelInfo[]> {
      return [{ id: 'acme-large' }, { id: 'acme-small' }];
    },
  };
}

function toAcmeBody(request: LlmRequest, creativity: number | undefined) {
  const system = request.system === undefined ? [] : [{ role: 'system', content: systemPromptText(request.system) }];
  return {
    model: request.model,
    stream: true,
    messages: [...system, ...request.messages.map(toAcmeMessage)],
    options: {
      ...(request.maxOutputTokens === undefined ? {} : { num_predict: request.maxOutputTokens }),
      ...(creativity === undefined ? {} : { creativity }),
    },
  };
}

function toAcmeMessage(message: Message) {
  const content =
    typeof message.content === 'string'
      ? message.content
      : message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return { role: message.role, content };
}
