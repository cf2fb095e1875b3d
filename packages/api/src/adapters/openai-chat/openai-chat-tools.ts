import type { ToolChoice, ToolDefinition } from '../../spec/tool-definition.js';

/** A function tool as Chat Completions takes it. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** `tool_choice` as Chat Completions takes it. */
export type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/**
 * Converts tool definitions (JSON Schema as given) and the tool choice. Without tools nothing is
 * sent, not even a tool choice (servers reject `tool_choice` without `tools`).
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
 */
export function prepareTools(
  tools: readonly ToolDefinition[] | undefined,
  toolChoice: ToolChoice | undefined,
): { tools?: ChatTool[]; tool_choice?: ChatToolChoice } {
  if (tools === undefined || tools.length === 0) return {};
  const prepared: ChatTool[] = tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
  if (toolChoice === undefined) return { tools: prepared };
  return { tools: prepared, tool_choice: mapToolChoice(toolChoice) };
}

function mapToolChoice(choice: ToolChoice): ChatToolChoice {
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}
