import type { LlmRequest, ThinkingConfig } from '../../spec/request.js';
import { convertToOllamaMessages } from './ollama-messages.js';
import { prepareOllamaTools } from './ollama-tools.js';
import type { OllamaChatRequest } from './ollama-wire.js';

/** Options of {@link buildOllamaRequestBody}. */
export interface OllamaRequestOptions {
  /** Provider id whose `providerOptions` entry is merged (besides `ollama`). */
  providerId: string;
  stream: boolean;
  /** `keep_alive`: how long the model stays loaded (`"10m"`, seconds, `-1`). */
  keepAlive?: string | number;
}

/**
 * Translates {@link ThinkingConfig} to Ollama's `think`: `disabled` is `false`; an effort is the
 * level string for gpt-oss models (which take `low`/`medium`/`high` and cannot turn thinking off)
 * and `true` for the others, which take only a boolean; a token budget is `true` (Ollama has no
 * budget).
 *
 * @see https://docs.ollama.com/capabilities/thinking
 */
export function toOllamaThink(thinking: ThinkingConfig | undefined, model: string): OllamaChatRequest['think'] {
  if (thinking === undefined) return undefined;
  switch (thinking.type) {
    case 'disabled':
      return false;
    case 'enabled':
      return true;
    case 'effort':
      return /gpt-oss/i.test(model) ? thinking.effort : true;
  }
}

/**
 * Builds the `/api/chat` body: messages, tools, `think`, `options` (`num_predict`, `temperature`,
 * `top_p`, `stop`), `keep_alive`, `stream` always explicit (Ollama streams when it is absent), then
 * `providerOptions.ollama` and `providerOptions[providerId]` merged one level deep (so
 * `{options: {num_ctx: 32768}}` adds to the generated options).
 *
 * @see https://docs.ollama.com/api/chat
 * @see https://docs.ollama.com/modelfile#valid-parameters-and-values
 */
export function buildOllamaRequestBody(request: LlmRequest, options: OllamaRequestOptions): OllamaChatRequest {
  const tools = prepareOllamaTools(request.tools, request.toolChoice);
  const think = toOllamaThink(request.thinking, request.model);
  const modelOptions = withoutUndefined({
    num_predict: request.maxOutputTokens,
    temperature: request.temperature,
    top_p: request.topP,
    stop: request.stopSequences === undefined || request.stopSequences.length === 0 ? undefined : request.stopSequences,
  });
  const body: OllamaChatRequest = {
    model: request.model,
    messages: convertToOllamaMessages(request.messages, request.system),
    stream: options.stream,
    ...(tools === undefined ? {} : { tools }),
    ...(think === undefined ? {} : { think }),
    ...(Object.keys(modelOptions).length === 0 ? {} : { options: modelOptions }),
    ...(options.keepAlive === undefined ? {} : { keep_alive: options.keepAlive }),
  };
  const merged = mergeOneLevel(body, request.providerOptions?.ollama);
  const result =
    options.providerId === 'ollama' ? merged : mergeOneLevel(merged, request.providerOptions?.[options.providerId]);
  // The transport decides streaming; an escape hatch must not flip it under the reader.
  return { ...result, stream: options.stream };
}

function mergeOneLevel(base: OllamaChatRequest, extra: Record<string, unknown> | undefined): OllamaChatRequest {
  if (extra === undefined) return base;
  const merged: OllamaChatRequest = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? { ...current, ...value } : value;
  }
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
