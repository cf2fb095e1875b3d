import { errorResult, type ToolResult, type ToolResultContent } from '@boxagnts/tools';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isMediaSource(source: unknown): boolean {
  if (typeof source !== 'object' || source === null) return false;
  const fields = source as Record<string, unknown>;
  if (fields.type === 'base64') return typeof fields.data === 'string' && typeof fields.mediaType === 'string';
  return fields.type === 'url' && typeof fields.url === 'string';
}

/** Why `block` is not a result block the model can get, or `undefined` when it is one. */
function blockProblem(block: unknown, index: number): string | undefined {
  if (typeof block !== 'object' || block === null) return `content[${index}] is ${describe(block)}`;
  const fields = block as Record<string, unknown>;
  if (fields.type === 'text') {
    return typeof fields.text === 'string'
      ? undefined
      : `content[${index}] is a text block whose "text" is not a string`;
  }
  if (fields.type === 'image') {
    return isMediaSource(fields.source) ? undefined : `content[${index}] is an image block without a valid "source"`;
  }
  return `content[${index}] has type ${JSON.stringify(fields.type) ?? 'undefined'} (expected "text" or "image")`;
}

function malformed(toolName: string, problem: string): ToolResult {
  return errorResult(
    `Tool "${toolName}" returned a result the loop cannot use: ${problem}. A tool returns ` +
      '{ content: [{ type: "text", text }] } (or a string as content); this is a defect of the tool, not of your call.',
    { malformedResult: problem },
  );
}

/**
 * Makes whatever a tool resolved to into a {@link ToolResult} the model can get: a result whose
 * `content` is a string becomes one text block, a valid result is returned as it is (no copy), and
 * anything else (no object, no content, blocks of unknown type) becomes an error result that says
 * what was wrong. Never throws.
 */
export function normalizeToolResult(toolName: string, result: unknown): ToolResult {
  if (typeof result !== 'object' || result === null) return malformed(toolName, `it is ${describe(result)}`);
  const fields = result as Record<string, unknown>;
  const content = fields.content;
  if (typeof content === 'string') {
    const text: ToolResultContent = { type: 'text', text: content };
    return { ...(result as ToolResult), content: [text] };
  }
  if (!Array.isArray(content)) return malformed(toolName, `its "content" is ${describe(content)}`);
  for (let index = 0; index < content.length; index++) {
    const problem = blockProblem(content[index], index);
    if (problem !== undefined) return malformed(toolName, problem);
  }
  const metadata = fields.metadata;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    const { metadata: _dropped, ...rest } = result as ToolResult;
    return rest;
  }
  return result as ToolResult;
}
