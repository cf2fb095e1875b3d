import type { ToolResultContent } from '@boxagnts/tools';

/** A resource's contents as MCP sends them (`resources/read`, embedded resources): text or base64 bytes. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** One content block of an MCP tool result, loosely typed: servers may send types newer than this code. */
export interface McpContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  resource?: McpResourceContents;
}

/** Image types every provider accepts as image blocks. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function isTextual(mimeType: string | undefined): boolean {
  if (mimeType === undefined) return false;
  const essence = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    essence.startsWith('text/') ||
    essence.endsWith('+json') ||
    essence.endsWith('+xml') ||
    [
      'application/json',
      'application/xml',
      'application/javascript',
      'application/yaml',
      'application/x-yaml',
    ].includes(essence)
  );
}

/** Approximate decoded size of base64 data. */
function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}

/**
 * Resource contents as result content: text as text (headed by the URI), base64 text types decoded,
 * common image types as image blocks, other bytes as a note with type and size (the model cannot use
 * raw bytes).
 */
export function mapResourceContents(contents: McpResourceContents): ToolResultContent[] {
  const mimeType = contents.mimeType ?? 'unknown type';
  const heading = `Resource ${contents.uri} (${mimeType})`;
  if (typeof contents.text === 'string') return [{ type: 'text', text: `${heading}:\n${contents.text}` }];
  if (typeof contents.blob === 'string') {
    if (contents.mimeType !== undefined && IMAGE_TYPES.has(contents.mimeType.toLowerCase())) {
      return [
        { type: 'text', text: `${heading}:` },
        { type: 'image', source: { type: 'base64', data: contents.blob, mediaType: contents.mimeType.toLowerCase() } },
      ];
    }
    if (isTextual(contents.mimeType)) {
      return [{ type: 'text', text: `${heading}:\n${Buffer.from(contents.blob, 'base64').toString('utf8')}` }];
    }
    return [{ type: 'text', text: `${heading}: binary data, ${base64Bytes(contents.blob)} bytes (not shown).` }];
  }
  return [{ type: 'text', text: `${heading}: no contents.` }];
}

/**
 * One MCP content block as result content: text -> text, image -> image, audio -> a note (no provider
 * takes audio in tool results), resource links -> their URI and description, embedded resources ->
 * {@link mapResourceContents}, unknown types -> a note naming the type.
 *
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
export function mapMcpContent(block: McpContentBlock): ToolResultContent[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text ?? '' }];
    case 'image':
      if (typeof block.data === 'string' && typeof block.mimeType === 'string') {
        return [{ type: 'image', source: { type: 'base64', data: block.data, mediaType: block.mimeType } }];
      }
      return [{ type: 'text', text: '[image without data]' }];
    case 'audio':
      return [
        {
          type: 'text',
          text: `[audio: ${block.mimeType ?? 'unknown type'}, ${base64Bytes(block.data ?? '')} bytes; audio cannot be shown here]`,
        },
      ];
    case 'resource_link': {
      const label = block.title ?? block.name ?? block.uri ?? 'resource';
      const details = [block.mimeType, block.description].filter((part) => part !== undefined).join(', ');
      return [
        { type: 'text', text: `Resource link: ${label} <${block.uri ?? ''}>${details === '' ? '' : ` (${details})`}` },
      ];
    }
    case 'resource':
      return block.resource === undefined
        ? [{ type: 'text', text: '[embedded resource without contents]' }]
        : mapResourceContents(block.resource);
    default:
      return [{ type: 'text', text: `[content of type "${block.type}" is not supported and was left out]` }];
  }
}
