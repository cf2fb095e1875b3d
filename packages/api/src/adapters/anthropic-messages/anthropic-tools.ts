import type { ToolChoice, ToolDefinition } from '../../spec/tool-definition.js';
import type { AnthropicToolChoice, AnthropicToolParam } from './anthropic-wire.js';

/** The `tools` and `tool_choice` fields of a request; either is absent when there is nothing to send. */
export interface PreparedAnthropicTools {
  tools?: AnthropicToolParam[];
  tool_choice?: AnthropicToolChoice;
}

/**
 * Converts tool definitions to Anthropic `tools` (`name`, `description`, `input_schema`) and the
 * tool choice to `tool_choice`: `auto` → `auto`, `required` → `any`, a named tool → `tool`, `none`
 * → `none`. With no tools neither field is sent. When `cacheBreakpoint` is set (the request uses
 * prompt caching) the last tool gets `cache_control: {type: 'ephemeral'}`: tools come first in the
 * cached prefix, so the tool list is cached even when the system prompt changes.
 *
 * @see https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 * @see https://docs.claude.com/en/docs/build-with-claude/prompt-caching
 */
export function prepareAnthropicTools(
  tools: readonly ToolDefinition[] | undefined,
  toolChoice: ToolChoice | undefined,
  options: { cacheBreakpoint?: boolean } = {},
): PreparedAnthropicTools {
  if (tools === undefined || tools.length === 0) return {};
  const prepared: AnthropicToolParam[] = tools.map((tool, index) => ({
    name: tool.name,
    ...(tool.description === '' ? {} : { description: tool.description }),
    input_schema: { type: 'object', ...tool.inputSchema },
    ...(options.cacheBreakpoint === true && index === tools.length - 1
      ? { cache_control: { type: 'ephemeral' as const } }
      : {}),
  }));
  const choice = mapToolChoice(toolChoice);
  return { tools: prepared, ...(choice === undefined ? {} : { tool_choice: choice }) };
}

/** @see https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use#forcing-tool-use */
function mapToolChoice(toolChoice: ToolChoice | undefined): AnthropicToolChoice | undefined {
  if (toolChoice === undefined) return undefined;
  if (typeof toolChoice === 'object') return { type: 'tool', name: toolChoice.name };
  switch (toolChoice) {
    case 'auto':
      return { type: 'auto' };
    case 'required':
      return { type: 'any' };
    case 'none':
      return { type: 'none' };
  }
}
