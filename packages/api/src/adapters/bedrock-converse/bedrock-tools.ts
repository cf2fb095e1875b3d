import type { ToolChoice, ToolDefinition } from '../../spec/tool-definition.js';
import type { BedrockTool, BedrockToolChoice, BedrockToolConfig } from './bedrock-wire.js';

/** What {@link prepareBedrockTools} needs. */
export interface PrepareBedrockToolsOptions {
  tools?: readonly ToolDefinition[] | undefined;
  toolChoice?: ToolChoice | undefined;
  /** Tools the history calls; Converse rejects tool blocks in `messages` without a `toolConfig`. */
  toolNamesInHistory: readonly string[];
  /** Put a `cachePoint` after the tool list (the caller asked for caching and the model caches tools). */
  cachePoint: boolean;
}

/**
 * The Converse `toolConfig`: each tool as a `toolSpec` with its JSON Schema under `inputSchema.json`,
 * and the choice: `required` is `{any: {}}`, a named tool `{tool: {name}}`, `auto` is left out (it is
 * the default, and models without `toolChoice` support reject the field). Converse has no `none`:
 * tools are then left out, unless the history holds tool blocks, which need a `toolConfig`; the tools
 * are then sent without a choice. When the request has no tools but the history calls some,
 * placeholder specs for those names are sent so the request is valid.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolConfiguration.html
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolChoice.html
 */
export function prepareBedrockTools(options: PrepareBedrockToolsOptions): BedrockToolConfig | undefined {
  const tools = options.tools ?? [];
  const needsConfig = options.toolNamesInHistory.length > 0;
  if (tools.length === 0) {
    if (!needsConfig) return undefined;
    return { tools: options.toolNamesInHistory.map(placeholderTool) };
  }
  if (options.toolChoice === 'none' && !needsConfig) return undefined;
  const specs: BedrockTool[] = tools.map((tool) => ({
    toolSpec: {
      name: tool.name,
      ...(tool.description === '' ? {} : { description: tool.description }),
      inputSchema: { json: tool.inputSchema },
    },
  }));
  if (options.cachePoint) specs.push({ cachePoint: { type: 'default' } });
  const toolChoice = mapToolChoice(options.toolChoice);
  return toolChoice === undefined ? { tools: specs } : { tools: specs, toolChoice };
}

function mapToolChoice(choice: ToolChoice | undefined): BedrockToolChoice | undefined {
  if (choice === undefined || choice === 'auto' || choice === 'none') return undefined;
  if (choice === 'required') return { any: {} };
  return { tool: { name: choice.name } };
}

function placeholderTool(name: string): BedrockTool {
  return {
    toolSpec: {
      name,
      description: 'A tool called earlier in this conversation; it is not available now.',
      inputSchema: { json: { type: 'object', properties: {} } },
    },
  };
}
