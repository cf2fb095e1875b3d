import type { Message } from '@boxagnts/api';

/** Characters per token of the fast estimate (a conservative average over code and prose). */
export const CHARS_PER_TOKEN = 4;

/** Characters of a message's content as the model reads it (images count as ~1,000 tokens). */
export function messageChars(message: Message): number {
  if (typeof message.content === 'string') return message.content.length;
  let chars = 0;
  for (const block of message.content) {
    switch (block.type) {
      case 'text':
        chars += block.text.length;
        break;
      case 'thinking':
        chars += block.thinking.length;
        break;
      case 'tool_use':
        chars += block.name.length + JSON.stringify(block.input).length;
        break;
      case 'tool_result':
        if (typeof block.content === 'string') chars += block.content.length;
        else for (const part of block.content) chars += part.type === 'text' ? part.text.length : 4000;
        break;
      case 'image':
      case 'document':
        chars += 4000;
        break;
      default:
        chars += 100;
    }
  }
  return chars;
}

/** A fast token estimate of a history (no tokenizer): characters / {@link CHARS_PER_TOKEN}. */
export function estimateTokens(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) chars += messageChars(message);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
