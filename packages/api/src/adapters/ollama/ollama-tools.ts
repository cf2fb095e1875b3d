import type { ToolChoice, ToolDefinition } from '../../spec/tool-definition.js';
import type { OllamaTool } from './ollama-wire.js';

/**
 * Builds Ollama's `tools` (OpenAI's function shape, the JSON Schema passed as is minus `$schema`).
 * Ollama has no tool-choice parameter, so the choice is approximated: `none` sends no tools, a named
 * tool sends only that tool, and `required` cannot be enforced (all tools are sent; the model may
 * still answer in text).
 *
 * @see https://docs.ollama.com/capabilities/tool-calling
 */
export function prepareOllamaTools(
  tools: readonly ToolDefinition[] | undefined,
  toolChoice: ToolChoice | undefined,
): OllamaTool[] | undefined {
  if (tools === undefined || tools.length === 0 || toolChoice === 'none') return undefined;
  const chosen = typeof toolChoice === 'object' ? tools.filter((tool) => tool.name === toolChoice.name) : tools;
  if (chosen.length === 0) return undefined;
  return chosen.map((tool) => {
    const { $schema: _schema, ...parameters } = tool.inputSchema;
    return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
  });
}
