import type { Catalogue } from './catalogue-types.js';
import { findModel } from './lookup.js';

/** A yes/no the catalogue may not know. */
export type Capability = boolean | 'unknown';

/**
 * What a model can do, for the loop's checks (send images or PDFs? offer tools? turn on thinking? how
 * much fits?). Every field is `'unknown'` when the model is not in the catalogue or the catalogue does
 * not say; treat `'unknown'` as "try and handle the vendor's error", not as "no".
 */
export interface ModelCapabilities {
  /** The catalogue row the answer comes from, when one was found. */
  model?: { provider: string; id: string };
  images: Capability;
  pdf: Capability;
  tools: Capability;
  thinking: Capability;
  /** Input plus output tokens. */
  contextWindow: number | 'unknown';
  /** Input tokens, where the vendor caps input below the context window; else the context window. */
  maxInput: number | 'unknown';
  maxOutput: number | 'unknown';
}

/** Options of {@link modelCapabilities}. */
export interface ModelCapabilitiesOptions {
  /** The provider serving the model: its own row wins (hosts differ in context limits). */
  provider?: string;
  /** Default the active catalogue. */
  catalogue?: Catalogue;
}

const UNKNOWN: ModelCapabilities = {
  images: 'unknown',
  pdf: 'unknown',
  tools: 'unknown',
  thinking: 'unknown',
  contextWindow: 'unknown',
  maxInput: 'unknown',
  maxOutput: 'unknown',
};

/**
 * Looks a model up (same rules as `findModel`; a provider with no rows of its own, such as `vllm`,
 * falls back to any provider's row of that model id) and says what it takes and how much.
 *
 * @example
 * const capabilities = modelCapabilities('gpt-4o', { provider: 'openai' });
 * if (capabilities.images === false) replaceImagesWithPlaceholders(messages);
 */
export function modelCapabilities(modelId: string, options: ModelCapabilitiesOptions = {}): ModelCapabilities {
  const model = findModel(modelId, options);
  if (model === undefined) return { ...UNKNOWN };
  const contextWindow = model.contextWindow ?? 'unknown';
  return {
    model: { provider: model.provider, id: model.id },
    images: model.input.includes('image'),
    pdf: model.input.includes('pdf'),
    tools: model.toolCall,
    thinking: model.reasoning,
    contextWindow,
    maxInput: model.maxInput ?? contextWindow,
    maxOutput: model.maxOutput ?? 'unknown',
  };
}
