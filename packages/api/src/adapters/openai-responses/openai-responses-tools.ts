import type { ToolChoice, ToolDefinition } from '../../spec/tool-definition.js';

/** A function tool in the Responses shape (flat, unlike Chat Completions' `{function: {...}}`). */
export interface OpenAIResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: false;
}

/** `tool_choice` in the Responses shape. */
export type OpenAIResponsesToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; name: string };

/** The request fields the tools become; both absent when there are no tools. */
export interface PreparedOpenAIResponsesTools {
  tools?: OpenAIResponsesFunctionTool[];
  tool_choice?: OpenAIResponsesToolChoice;
}

/**
 * Turns tool definitions and the tool choice into the Responses `tools` and `tool_choice` fields.
 * `strict` is sent as `false`: when it is omitted the Responses API (unlike Chat Completions)
 * normalizes any compatible schema into strict mode, which makes every optional property required,
 * so the model fills in values that were meant to be left out. Without tools the tool choice is
 * dropped (the API rejects one with nothing to choose from).
 *
 * @see https://platform.openai.com/docs/guides/function-calling#strict-mode
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-tool_choice
 */
export function prepareOpenAIResponsesTools(
  tools: readonly ToolDefinition[] | undefined,
  toolChoice: ToolChoice | undefined,
): PreparedOpenAIResponsesTools {
  if (tools === undefined || tools.length === 0) return {};
  const prepared: PreparedOpenAIResponsesTools = {
    tools: tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    })),
  };
  if (toolChoice !== undefined) prepared.tool_choice = mapToolChoice(toolChoice);
  return prepared;
}

function mapToolChoice(choice: ToolChoice): OpenAIResponsesToolChoice {
  if (typeof choice === 'string') return choice;
  return { type: 'function', name: choice.name };
}
