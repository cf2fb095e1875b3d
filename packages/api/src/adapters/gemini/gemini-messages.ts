import { systemPromptSegments } from '../../shared/system-prompt.js';
import { type ProviderUserContentBlock, toProviderUserContent } from '../../shared/transcript-blocks.js';
import type {
  AssistantMessage,
  ImageBlock,
  MediaSource,
  Message,
  TextBlock,
  ToolResultBlock,
} from '../../spec/message.js';
import type { SystemPrompt } from '../../spec/request.js';
import type { GeminiContent, GeminiRequestPart } from './gemini-wire.js';

/** Options of {@link convertToGeminiContents}. */
export interface GeminiMessageOptions {
  /**
   * Major version of the Gemini model (3 for `gemini-3-pro-preview`), when the id says. Gemini 3
   * takes images inside a function response and validates thought signatures on function calls.
   */
  modelGeneration?: number | undefined;
}

/**
 * What this adapter stores under `providerMetadata.gemini` of a block, and replays unchanged:
 * `thoughtSignature` on text, thinking and tool-use blocks (on the same part type it came on), and
 * `functionCallId`, the id Gemini gave a function call (absent when Gemini gave none and the block's
 * id was generated; then no id is sent back).
 */
export interface GeminiBlockMetadata {
  thoughtSignature?: string;
  functionCallId?: string;
}

/**
 * Gemini's documented stand-in signature for function calls that did not come from Gemini (a history
 * moved from another vendor), which Gemini 3 would otherwise reject for the missing signature.
 *
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures#faqs
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Converts the conversation to Gemini `contents` and `systemInstruction`: system prompt parts and
 * system messages go to `systemInstruction`; user text, images and PDFs become `text`, `inlineData`
 * (base64) or `fileData` (URLs) parts; assistant text, thinking (`thought: true`) and tool calls
 * become `model` parts carrying their `thoughtSignature` exactly as received; tool results become
 * `functionResponse` parts named after the call they answer (found by id in the history) with the
 * call's own Gemini id when it had one. Empty text is dropped, and a turn left with no parts is left
 * out, since Gemini rejects both. Redacted thinking (another vendor's encrypted reasoning) is dropped.
 * The system prompt's cache boundary has no Gemini marker: Gemini caches repeated prefixes on its own
 * (implicit caching), and an explicit cache is a `cachedContents` resource named through
 * `providerOptions.gemini.cachedContent`.
 *
 * @see https://ai.google.dev/api/caching#Content
 * @see https://ai.google.dev/gemini-api/docs/function-calling
 */
export function convertToGeminiContents(
  messages: readonly Message[],
  system: SystemPrompt | undefined,
  options: GeminiMessageOptions = {},
): { contents: GeminiContent[]; systemInstruction?: { parts: Array<{ text: string }> } } {
  const systemParts = systemPromptSegments(system).map((segment) => ({ text: segment.text }));
  const contents: GeminiContent[] = [];
  const calls = new Map<string, { name: string; functionCallId: string | undefined }>();

  for (const message of messages) {
    if (message.role === 'system') {
      const texts = typeof message.content === 'string' ? [message.content] : message.content.map((part) => part.text);
      for (const text of texts) if (text !== '') systemParts.push({ text });
      continue;
    }
    if (message.role === 'assistant') {
      for (const block of message.content) {
        if (block.type === 'tool_use') {
          calls.set(block.id, { name: block.name, functionCallId: geminiMetadata(block).functionCallId });
        }
      }
      const parts = assistantParts(message, options);
      if (parts.length > 0) contents.push({ role: 'model', parts });
      continue;
    }
    const blocks: readonly ProviderUserContentBlock[] =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : toProviderUserContent(message.content, { documentContextAsText: true });
    const parts = blocks.flatMap((block) => userParts(block, calls, options));
    if (parts.length > 0) contents.push({ role: 'user', parts });
  }
  return systemParts.length === 0 ? { contents } : { contents, systemInstruction: { parts: systemParts } };
}

/** Reads this adapter's metadata from a block (other vendors' keys are ignored). */
export function geminiMetadata(block: {
  providerMetadata?: Record<string, Record<string, unknown>>;
}): GeminiBlockMetadata {
  const entry = block.providerMetadata?.gemini;
  if (entry === undefined) return {};
  return {
    ...(typeof entry.thoughtSignature === 'string' ? { thoughtSignature: entry.thoughtSignature } : {}),
    ...(typeof entry.functionCallId === 'string' ? { functionCallId: entry.functionCallId } : {}),
  };
}

function assistantParts(message: AssistantMessage, options: GeminiMessageOptions): GeminiRequestPart[] {
  const parts: GeminiRequestPart[] = [];
  const callsCarrySignature = message.content.some(
    (block) => block.type === 'tool_use' && geminiMetadata(block).thoughtSignature !== undefined,
  );
  let needsStandIn = (options.modelGeneration ?? 0) >= 3 && !callsCarrySignature;
  for (const block of message.content) {
    const { thoughtSignature, functionCallId } = geminiMetadata(block);
    const signature = thoughtSignature === undefined ? {} : { thoughtSignature };
    switch (block.type) {
      case 'text':
        if (block.text !== '') parts.push({ text: block.text, ...signature });
        break;
      case 'thinking':
        if (block.thinking !== '' || thoughtSignature !== undefined) {
          parts.push({ text: block.thinking, thought: true, ...signature });
        }
        break;
      case 'tool_use': {
        const call = {
          ...(functionCallId === undefined ? {} : { id: functionCallId }),
          name: block.name,
          args: block.input,
        };
        const standIn = needsStandIn ? { thoughtSignature: SKIP_THOUGHT_SIGNATURE } : {};
        needsStandIn = false;
        parts.push({ functionCall: call, ...signature, ...(thoughtSignature === undefined ? standIn : {}) });
        break;
      }
      case 'redacted_thinking':
        break;
    }
  }
  return parts;
}

function userParts(
  block: ProviderUserContentBlock,
  calls: ReadonlyMap<string, { name: string; functionCallId: string | undefined }>,
  options: GeminiMessageOptions,
): GeminiRequestPart[] {
  switch (block.type) {
    case 'text':
      return block.text === '' ? [] : [{ text: block.text }];
    case 'image':
      return [mediaPart(block.source, undefined)];
    case 'document':
      return [mediaPart(block.source, 'application/pdf')];
    case 'tool_result':
      return functionResponseParts(block, calls.get(block.toolUseId), options);
  }
}

/**
 * A tool result as a `functionResponse`: `{output: text}`, or `{error: text}` when it failed (the
 * keys Gemini documents). Images go inside the response as `parts` for Gemini 3; for older models
 * they follow as separate parts and the output says so. A result whose call is not in the history
 * is named after its id.
 */
function functionResponseParts(
  block: ToolResultBlock,
  call: { name: string; functionCallId: string | undefined } | undefined,
  options: GeminiMessageOptions,
): GeminiRequestPart[] {
  const content: Array<TextBlock | ImageBlock> =
    typeof block.content === 'string' ? [{ type: 'text', text: block.content }] : block.content;
  const text = content
    .filter((part): part is TextBlock => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const images = content.filter((part): part is ImageBlock => part.type === 'image');
  const inline = images.flatMap((image) => (image.source.type === 'base64' ? [image.source] : []));
  const multimodal = (options.modelGeneration ?? 0) >= 3;
  const separate = multimodal ? images.filter((image) => image.source.type === 'url') : images;
  const note =
    separate.length === 0
      ? ''
      : `${text === '' ? '' : '\n'}[The tool returned ${separate.length} image(s); they follow this result as separate parts.]`;
  const response = { [block.isError === true ? 'error' : 'output']: `${text}${note}` };
  const functionResponse = {
    ...(call?.functionCallId === undefined ? {} : { id: call.functionCallId }),
    name: call?.name ?? block.toolUseId,
    response,
    ...(multimodal && inline.length > 0
      ? {
          parts: inline.map((source, index) => ({
            inlineData: { mimeType: source.mediaType, data: source.data, displayName: `image_${index + 1}` },
          })),
        }
      : {}),
  };
  return [{ functionResponse }, ...separate.map((image) => mediaPart(image.source, undefined))];
}

/** Base64 bytes as `inlineData`; a `data:` URL likewise; any other URL as `fileData`. */
function mediaPart(source: MediaSource, defaultMimeType: string | undefined): GeminiRequestPart {
  if (source.type === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  const dataUrl = /^data:([^;,]+);base64,(.*)$/s.exec(source.url);
  if (dataUrl !== null) return { inlineData: { mimeType: dataUrl[1] ?? '', data: dataUrl[2] ?? '' } };
  const mimeType = mimeTypeFromUrl(source.url) ?? defaultMimeType;
  return { fileData: { fileUri: source.url, ...(mimeType === undefined ? {} : { mimeType }) } };
}

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
};

function mimeTypeFromUrl(url: string): string | undefined {
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : EXTENSION_TYPES[extension];
}
