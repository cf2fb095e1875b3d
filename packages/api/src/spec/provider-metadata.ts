/**
 * Vendor data that must travel with a block or message and be sent back unchanged on later turns,
 * keyed first by the protocol or provider that produced it (`anthropic`, `openai-responses`,
 * `gemini`, `openai-chat`, ...) and then by the vendor's own field name.
 *
 * Examples: Gemini's `thoughtSignature`, an OpenAI Responses reasoning item `id` and
 * `encrypted_content`, the `reasoning_content` DeepSeek/Kimi/GLM want echoed. An adapter reads only
 * its own key and ignores the others, so a history can move between vendors without corrupting it.
 */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/**
 * Per-call options for one vendor that the common request has no field for, keyed by provider or
 * protocol id (an escape hatch: `{ anthropic: { top_k: 5 } }`).
 */
export type ProviderOptions = Record<string, Record<string, unknown>>;
