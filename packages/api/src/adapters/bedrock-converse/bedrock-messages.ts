import { systemPromptSegments } from '../../shared/system-prompt.js';
import { type ToolCallIdRules, toVendorToolCallId } from '../../shared/tool-call-ids.js';
import { toProviderUserContent } from '../../shared/transcript-blocks.js';
import type {
  AssistantContentBlock,
  DocumentBlock,
  ImageBlock,
  Message,
  ToolResultBlock,
  UserContentBlock,
} from '../../spec/message.js';
import type { SystemPrompt } from '../../spec/request.js';
import type {
  BedrockContentBlock,
  BedrockDocumentFormat,
  BedrockImageBlock,
  BedrockImageFormat,
  BedrockMessage,
  BedrockSystemBlock,
  BedrockToolResultContent,
} from './bedrock-wire.js';

/**
 * Converse `toolUseId`: 1-64 characters of `[a-zA-Z0-9_-]`. Every tool_use id and tool_result
 * reference is rewritten with the same pure function, so they stay paired.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolUseBlock.html
 */
export const BEDROCK_TOOL_CALL_ID_RULES: ToolCallIdRules = { allowed: /[a-zA-Z0-9_-]/, maxLength: 64 };

/** The Converse `system` and `messages` of a conversation, and the tools its history mentions. */
export interface BedrockPrompt {
  system: BedrockSystemBlock[];
  messages: BedrockMessage[];
  /** Names of tools called in the history (Converse needs a `toolConfig` whenever tool blocks appear). */
  toolNamesInHistory: string[];
}

const CACHE_POINT = { cachePoint: { type: 'default' } } as const;

const IMAGE_FORMATS: Record<string, BedrockImageFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const DOCUMENT_FORMATS: Record<string, BedrockDocumentFormat> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/**
 * Converts a system prompt and conversation to Converse. System text (the prompt, then any system
 * messages) becomes `system` blocks, with a `cachePoint` after the text before each cache boundary
 * when `cacheMarkers` is on. Consecutive messages of one role are merged (Converse requires turns to
 * alternate), with tool results first in a user turn. Blank text blocks are dropped. Images and
 * documents go as bytes (base64) or S3 locations; a web URL, which Converse cannot fetch, becomes a
 * text note. Thinking is replayed as `reasoningContent.reasoningText` with its signature exactly as
 * received; thinking without a signature (another vendor's) is dropped, since Claude on Bedrock
 * rejects unsigned reasoning and other models need none replayed. Redacted thinking goes back as
 * `redactedContent`.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html
 */
export function convertToBedrockPrompt(
  systemPrompt: SystemPrompt | undefined,
  messages: readonly Message[],
  options: { cacheMarkers: boolean },
): BedrockPrompt {
  const system: BedrockSystemBlock[] = [];
  for (const segment of systemPromptSegments(systemPrompt)) {
    system.push({ text: segment.text });
    if (segment.cacheBreakpoint && options.cacheMarkers) system.push(CACHE_POINT);
  }
  const converted: BedrockMessage[] = [];
  const toolNames = new Set<string>();
  const documentNames = new Set<string>();
  for (const message of messages) {
    if (message.role === 'system') {
      const text = typeof message.content === 'string' ? message.content : message.content.map((b) => b.text).join('');
      if (text.trim() !== '') system.push({ text });
      continue;
    }
    const content =
      message.role === 'user'
        ? userContent(message.content, documentNames)
        : assistantContent(message.content, toolNames);
    if (content.length === 0) continue;
    const previous = converted.at(-1);
    if (previous?.role === message.role) previous.content.push(...content);
    else converted.push({ role: message.role, content });
  }
  for (const message of converted) {
    if (message.role === 'user') message.content = toolResultsFirst(message.content);
  }
  return { system, messages: converted, toolNamesInHistory: [...toolNames] };
}

function userContent(content: string | readonly UserContentBlock[], documentNames: Set<string>): BedrockContentBlock[] {
  if (typeof content === 'string') return isBlank(content) ? [] : [{ text: content }];
  const blocks: BedrockContentBlock[] = [];
  for (const block of toProviderUserContent(content)) {
    switch (block.type) {
      case 'text':
        if (!isBlank(block.text)) blocks.push({ text: block.text });
        break;
      case 'image':
        blocks.push(imageBlock(block));
        break;
      case 'document':
        blocks.push(documentBlock(block, documentNames));
        break;
      case 'tool_result':
        blocks.push(toolResultBlock(block));
        break;
    }
  }
  return blocks;
}

function assistantContent(content: readonly AssistantContentBlock[], toolNames: Set<string>): BedrockContentBlock[] {
  const blocks: BedrockContentBlock[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (!isBlank(block.text)) blocks.push({ text: block.text });
        break;
      case 'thinking':
        if (block.signature !== undefined && block.signature !== '') {
          blocks.push({ reasoningContent: { reasoningText: { text: block.thinking, signature: block.signature } } });
        }
        break;
      case 'redacted_thinking':
        blocks.push({ reasoningContent: { redactedContent: block.data } });
        break;
      case 'tool_use':
        toolNames.add(block.name);
        blocks.push({
          toolUse: {
            toolUseId: toVendorToolCallId(block.id, BEDROCK_TOOL_CALL_ID_RULES),
            name: block.name,
            input: block.input,
          },
        });
        break;
    }
  }
  return blocks;
}

/** Anthropic models on Bedrock want a user turn's tool results before any other content. */
function toolResultsFirst(content: BedrockContentBlock[]): BedrockContentBlock[] {
  const results = content.filter((block) => 'toolResult' in block);
  if (results.length === 0) return content;
  return [...results, ...content.filter((block) => !('toolResult' in block))];
}

function toolResultBlock(block: ToolResultBlock): BedrockContentBlock {
  const content: BedrockToolResultContent[] = [];
  if (typeof block.content === 'string') {
    if (block.content !== '') content.push({ text: block.content });
  } else {
    for (const part of block.content) {
      if (part.type === 'text') {
        if (part.text !== '') content.push({ text: part.text });
      } else {
        content.push(imageBlock(part));
      }
    }
  }
  // Converse needs at least one content item; an empty result says so in words.
  if (content.length === 0) content.push({ text: '(no output)' });
  return {
    toolResult: {
      toolUseId: toVendorToolCallId(block.toolUseId, BEDROCK_TOOL_CALL_ID_RULES),
      content,
      status: block.isError === true ? 'error' : 'success',
    },
  };
}

function imageBlock(block: ImageBlock): BedrockImageBlock | { text: string } {
  const source = block.source;
  if (source.type === 'base64') {
    const format = IMAGE_FORMATS[source.mediaType.toLowerCase()];
    if (format === undefined) {
      return { text: `[image of type ${source.mediaType} omitted: Bedrock Converse takes PNG, JPEG, GIF and WebP]` };
    }
    return { image: { format, source: { bytes: source.data } } };
  }
  const format = source.url.startsWith('s3://') ? imageFormatFromPath(source.url) : undefined;
  if (format === undefined) {
    return { text: `[image ${source.url} omitted: Bedrock Converse takes images as bytes or S3 locations]` };
  }
  return { image: { format, source: { s3Location: { uri: source.url } } } };
}

function imageFormatFromPath(url: string): BedrockImageFormat | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(url)?.[1]?.toLowerCase();
  if (extension === undefined) return undefined;
  return IMAGE_FORMATS[`image/${extension}`];
}

function documentBlock(block: DocumentBlock, names: Set<string>): BedrockContentBlock {
  const source = block.source;
  const label = block.title ?? (source.type === 'url' ? source.url : 'document');
  if (source.type === 'url' && !source.url.startsWith('s3://')) {
    return { text: `[document ${label} omitted: Bedrock Converse takes documents as bytes or S3 locations]` };
  }
  const format =
    source.type === 'base64'
      ? DOCUMENT_FORMATS[source.mediaType.toLowerCase()]
      : (/\.([a-z0-9]+)$/i.exec(source.url)?.[1]?.toLowerCase() as BedrockDocumentFormat | undefined);
  if (format === undefined || !Object.values(DOCUMENT_FORMATS).includes(format)) {
    return { text: `[document ${label} omitted: Bedrock Converse does not take this document type]` };
  }
  const name = documentName(block.title, names);
  const wireSource = source.type === 'base64' ? { bytes: source.data } : { s3Location: { uri: source.url } };
  const context = block.context === undefined || block.context === '' ? {} : { context: block.context };
  return { document: { format, name, source: wireSource, ...context } };
}

/**
 * A document name Converse accepts (letters, digits, single spaces, hyphens, parentheses, square
 * brackets; 1-200 characters), unique within the request.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html
 */
export function documentName(title: string | undefined, used: Set<string>): string {
  const cleaned = (title ?? '')
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 190);
  const base = cleaned === '' ? `document ${used.size + 1}` : cleaned;
  let name = base;
  for (let copy = 2; used.has(name); copy += 1) name = `${base} (${copy})`;
  used.add(name);
  return name;
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}
