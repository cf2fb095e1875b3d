// The project's own model catalogue format: what `scripts/build-catalogue.ts` writes to
// `data/catalogue.json` and what lookups, cost and capability checks read. Only facts we use are kept.

/** What a model takes in or gives out (models.dev's modality names). */
export type CatalogueModality = 'text' | 'image' | 'audio' | 'video' | 'pdf';

/** Release status a catalogue row may carry; absent means generally available. */
export type CatalogueModelStatus = 'alpha' | 'beta' | 'deprecated';

/**
 * Prices above an input-size threshold (long-context pricing, e.g. Gemini 2.5 Pro above 200k prompt
 * tokens). A field left out keeps the base price's relation (see `computeCost`).
 */
export interface CataloguePriceTier {
  /** The tier applies when the call's input tokens (cached ones included) exceed this number. */
  inputAbove: number;
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/** Prices in USD per million tokens. A missing cache price is not "free"; `computeCost` documents the fallback. */
export interface CataloguePrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Reasoning tokens, where the vendor prices them apart from other output. */
  reasoning?: number;
  /** Long-context tiers, sorted by `inputAbove` ascending. */
  tiers?: CataloguePriceTier[];
}

/** One model as one catalogue provider serves it. */
export interface CatalogueModel {
  /** The catalogue provider id (models.dev's id, e.g. `anthropic`, `google-vertex`, `zhipuai`). */
  provider: string;
  /** The id the vendor's API takes. */
  id: string;
  name: string;
  family?: string;
  /** Other ids the vendor accepts for exactly this model (dated snapshots, `-latest`), sorted. */
  aliases?: string[];
  /** Input plus output tokens the model holds; absent when unknown. */
  contextWindow?: number;
  /** Input tokens accepted, where the vendor caps input below the context window (e.g. GPT-5). */
  maxInput?: number;
  maxOutput?: number;
  /** Absent when the catalogue has no price (never read as free). */
  price?: CataloguePrice;
  input: CatalogueModality[];
  output: CatalogueModality[];
  /** Thinking / reasoning support. */
  reasoning: boolean;
  toolCall: boolean;
  /** File attachments in general (models.dev's `attachment`); PDFs specifically are `input: ['pdf']`. */
  attachment: boolean;
  /** Whether `temperature` is accepted (false for e.g. OpenAI reasoning models); absent when unknown. */
  temperature?: boolean;
  /**
   * Reasoning from earlier turns must be sent back (interleaved thinking): `true`, or the wire field that
   * carries it on OpenAI-compatible APIs (`reasoning_content`, `reasoning_details`).
   */
  interleavedReasoning?: true | string;
  /** Knowledge cutoff, `YYYY-MM` or `YYYY-MM-DD`. */
  knowledge?: string;
  /** `YYYY-MM` or `YYYY-MM-DD`. */
  releaseDate?: string;
  status?: CatalogueModelStatus;
}

/** A catalogue provider (a models.dev provider): where its rows come from. */
export interface CatalogueProvider {
  id: string;
  name: string;
  /** Environment variables models.dev lists for the provider (keys and settings), for information only. */
  env: string[];
  /** The OpenAI-compatible base URL models.dev lists, when it lists one. */
  api?: string;
  /** The vendor's model documentation. */
  doc?: string;
}

/** The whole catalogue: providers and their models, rows sorted by provider then id. */
export interface Catalogue {
  format: 'boxagnts-model-catalogue';
  version: 1;
  /** Where the facts came from. */
  source: string;
  providers: CatalogueProvider[];
  models: CatalogueModel[];
}
