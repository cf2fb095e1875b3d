import type { LlmRequest, ThinkingConfig, ThinkingEffort } from '../../spec/request.js';
import { convertToGeminiContents } from './gemini-messages.js';
import { type GeminiToolSchemaMode, prepareGeminiTools } from './gemini-tools.js';
import type { GeminiRequestBody, GeminiThinkingConfig } from './gemini-wire.js';

/** Options of {@link buildGeminiRequestBody}. */
export interface GeminiRequestOptions {
  /** Provider id whose `providerOptions` entry is merged (besides `gemini`). */
  providerId: string;
  /** Vertex AI: request metadata is sent as `labels` (the Gemini API has no such field). */
  vertex: boolean;
  schemaMode?: GeminiToolSchemaMode;
}

/**
 * The major version in a Gemini model id (`gemini-2.5-flash` → 2, `models/gemini-3-pro-preview` →
 * 3), or undefined for ids that do not say (`gemini-flash-latest`, tuned models), which are treated
 * as the newest generation.
 */
export function geminiModelGeneration(model: string): number | undefined {
  const match = /gemini-(\d+)/i.exec(model);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Gemini 2.5 budgets for effort levels, the ones Google's OpenAI-compatible endpoint uses. */
const EFFORT_BUDGETS: Record<ThinkingEffort, number> = { low: 1_024, medium: 8_192, high: 24_576 };

/**
 * Translates {@link ThinkingConfig} to `thinkingConfig`: a token budget is `thinkingBudget`; an
 * effort is `thinkingLevel` on Gemini 3 and later and a budget (1K/8K/24K) on 2.x; `disabled` is
 * `thinkingBudget: 0` on 2.x (Flash models; 2.5 Pro cannot turn thinking off and says so) and the
 * lowest level on 3 (`minimal` for Flash, `low` for Pro), since Gemini 3 always thinks. Thoughts are
 * requested (`includeThoughts`) whenever thinking is on, so their summaries come back as thinking
 * blocks.
 *
 * @see https://ai.google.dev/gemini-api/docs/thinking
 * @see https://ai.google.dev/gemini-api/docs/openai#thinking
 */
export function toGeminiThinkingConfig(
  thinking: ThinkingConfig | undefined,
  model: string,
): GeminiThinkingConfig | undefined {
  if (thinking === undefined) return undefined;
  const generation = geminiModelGeneration(model);
  const usesLevels = generation === undefined || generation >= 3;
  switch (thinking.type) {
    case 'enabled':
      return { thinkingBudget: thinking.budgetTokens, includeThoughts: true };
    case 'effort':
      return usesLevels
        ? { thinkingLevel: thinking.effort, includeThoughts: true }
        : { thinkingBudget: EFFORT_BUDGETS[thinking.effort], includeThoughts: true };
    case 'disabled':
      if (!usesLevels) return { thinkingBudget: 0 };
      return { thinkingLevel: /pro/i.test(model) ? 'low' : 'minimal' };
  }
}

/**
 * Builds the `generateContent` body: contents and system instruction, tools and tool config,
 * `generationConfig` (maxOutputTokens, temperature, topP, stopSequences, thinkingConfig), Vertex
 * `labels` from the request metadata, then `providerOptions.gemini` and `providerOptions[providerId]`
 * merged on top (one level deep, so `{generationConfig: {topK: 40}}` adds to the generated config).
 *
 * @see https://ai.google.dev/api/generate-content#request-body
 */
export function buildGeminiRequestBody(request: LlmRequest, options: GeminiRequestOptions): GeminiRequestBody {
  const modelGeneration = geminiModelGeneration(request.model);
  const { contents, systemInstruction } = convertToGeminiContents(request.messages, request.system, {
    modelGeneration,
  });
  const tools = prepareGeminiTools(request.tools, request.toolChoice, options.schemaMode);
  const thinkingConfig = toGeminiThinkingConfig(request.thinking, request.model);
  const generationConfig = withoutUndefined({
    maxOutputTokens: request.maxOutputTokens,
    temperature: request.temperature,
    topP: request.topP,
    stopSequences:
      request.stopSequences === undefined || request.stopSequences.length === 0 ? undefined : request.stopSequences,
    thinkingConfig,
  });
  const body: GeminiRequestBody = {
    contents,
    ...(systemInstruction === undefined ? {} : { systemInstruction }),
    ...tools,
    ...(Object.keys(generationConfig).length === 0 ? {} : { generationConfig }),
    ...(options.vertex && request.metadata !== undefined && Object.keys(request.metadata).length > 0
      ? { labels: request.metadata }
      : {}),
  };
  const merged = mergeOneLevel(body, request.providerOptions?.gemini);
  return options.providerId === 'gemini'
    ? merged
    : mergeOneLevel(merged, request.providerOptions?.[options.providerId]);
}

function mergeOneLevel(base: GeminiRequestBody, extra: Record<string, unknown> | undefined): GeminiRequestBody {
  if (extra === undefined) return base;
  const merged: GeminiRequestBody = { ...base };
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
