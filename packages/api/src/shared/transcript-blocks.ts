import type {
  DocumentBlock,
  ImageBlock,
  TextBlock,
  ToolResultBlock,
  TranscriptBlock,
  UserContentBlock,
} from '../spec/message.js';

/** The user blocks every adapter has a wire form for (transcript blocks already turned into text). */
export type ProviderUserContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolResultBlock;

const TRANSCRIPT_BLOCK_TYPES: ReadonlySet<string> = new Set<TranscriptBlock['type']>([
  'user_local_command_output',
  'user_command',
  'user_memory_input',
  'system_api_error',
  'collapsed_read_search',
  'task_assignment',
]);

/** True for the transcript block kinds ({@link TranscriptBlock}), whatever else the block holds. */
export function isTranscriptBlock(block: { type: string }): block is TranscriptBlock {
  return TRANSCRIPT_BLOCK_TYPES.has(block.type);
}

/**
 * The text a model is given for a transcript block, or `undefined` when the block is left out of
 * requests: `system_api_error` (the model did not say it and cannot act on it) and
 * `collapsed_read_search` (a UI summary of tool calls whose own blocks stay in the history).
 */
export function transcriptBlockToText(block: TranscriptBlock): string | undefined {
  switch (block.type) {
    case 'user_local_command_output':
      return `The user ran a local command: ${block.command}\nIts output:\n${block.output}`;
    case 'user_command':
      return `The user invoked the command /${block.name}${block.args === '' ? '' : ` ${block.args}`}`;
    case 'user_memory_input':
      return `The user asked you to remember: ${block.key}: ${block.value}`;
    case 'task_assignment':
      return `Task ${block.id} is assigned to you: ${block.subject}\n\n${block.description}`;
    case 'system_api_error':
    case 'collapsed_read_search':
      return undefined;
    default:
      return undefined;
  }
}

/** Options of {@link toProviderUserContent}. */
export interface ToProviderUserContentOptions {
  /**
   * Put a document's `context` into a text part just before it, for vendors whose document part has
   * no field of its own for it. Adapters with such a field (Anthropic, Bedrock) leave this off.
   */
  documentContextAsText?: boolean;
}

/**
 * The user content an adapter converts: transcript blocks become text blocks (or are left out, see
 * {@link transcriptBlockToText}); with `documentContextAsText`, a document's context becomes a text
 * block before it. Content with neither is returned as it is (no copy).
 */
export function toProviderUserContent(
  content: readonly UserContentBlock[],
  options: ToProviderUserContentOptions = {},
): readonly ProviderUserContentBlock[] {
  const contextAsText = options.documentContextAsText === true;
  if (!content.some((block) => isTranscriptBlock(block) || (contextAsText && hasContext(block)))) {
    return content as readonly ProviderUserContentBlock[];
  }
  const converted: ProviderUserContentBlock[] = [];
  for (const block of content) {
    if (isTranscriptBlock(block)) {
      const text = transcriptBlockToText(block);
      if (text !== undefined) converted.push({ type: 'text', text });
      continue;
    }
    if (contextAsText && block.type === 'document' && hasContext(block)) {
      const title = block.title === undefined || block.title === '' ? '' : ` "${block.title}"`;
      converted.push({ type: 'text', text: `About the next document${title}: ${block.context}` });
    }
    converted.push(block);
  }
  return converted;
}

function hasContext(block: UserContentBlock): boolean {
  return block.type === 'document' && typeof block.context === 'string' && block.context !== '';
}
