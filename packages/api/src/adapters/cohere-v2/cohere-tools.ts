import type { ToolChoice, ToolDefinition } from '../../spec/tool-definition.js';
import type { CohereTool } from './cohere-wire.js';

/** The `tools` and `tool_choice` of a Cohere v2 request. */
export interface CohereToolFields {
  tools?: CohereTool[];
  tool_choice?: 'REQUIRED' | 'NONE';
}

/**
 * Tools as Cohere v2 function tools (`{type: 'function', function: {name, description, parameters}}`)
 * and the choice: `required` is `REQUIRED`, `none` is `NONE`, `auto` is left out (the default).
 * Cohere cannot name one tool, so a named choice sends only that tool with `REQUIRED`.
 *
 * @see https://docs.cohere.com/reference/chat#request.body.tool_choice
 */
export function prepareCohereTools(
  tools: readonly ToolDefinition[] | undefined,
  toolChoice: ToolChoice | undefined,
): CohereToolFields {
  if (tools === undefined || tools.length === 0) return {};
  const named = typeof toolChoice === 'object' ? toolChoice.name : undefined;
  const selected = named === undefined ? tools : tools.filter((tool) => tool.name === named);
  const wire: CohereTool[] = selected.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === '' ? {} : { description: tool.description }),
      parameters: tool.inputSchema,
    },
  }));
  if (toolChoice === 'required' || named !== undefined) return { tools: wire, tool_choice: 'REQUIRED' };
  if (toolChoice === 'none') return { tools: wire, tool_choice: 'NONE' };
  return { tools: wire };
}
