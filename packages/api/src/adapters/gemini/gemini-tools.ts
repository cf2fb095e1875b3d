import type { ToolChoice, ToolDefinition } from '../../spec/tool-definition.js';
import { toGeminiSchema } from './gemini-schema.js';
import type { GeminiFunctionDeclaration, GeminiToolConfig } from './gemini-wire.js';

/**
 * How tool input schemas are sent: `openapi` (default) converts them with `toGeminiSchema` into
 * `parameters`, the OpenAPI subset every Gemini model and Vertex AI accept; `json-schema` sends them
 * as they are (minus `$schema`) in `parametersJsonSchema`, which the Gemini API accepts for recent
 * models and which keeps `$ref`, `additionalProperties` and the like.
 *
 * @see https://ai.google.dev/api/caching#FunctionDeclaration
 */
export type GeminiToolSchemaMode = 'openapi' | 'json-schema';

/** The `tools` and `toolConfig` fields of a request. */
export interface PreparedGeminiTools {
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: GeminiToolConfig;
}

/**
 * Builds `functionDeclarations` and `toolConfig.functionCallingConfig` from the request's tools and
 * tool choice: `auto` is mode `AUTO`, `none` is `NONE`, `required` is `ANY`, and one named tool is
 * `ANY` with `allowedFunctionNames: [name]`. A function with no parameters is declared without
 * `parameters`, as Gemini requires.
 *
 * @see https://ai.google.dev/gemini-api/docs/function-calling#function_calling_modes
 */
export function prepareGeminiTools(
  tools: readonly ToolDefinition[] | undefined,
  toolChoice: ToolChoice | undefined,
  schemaMode: GeminiToolSchemaMode = 'openapi',
): PreparedGeminiTools {
  if (tools === undefined || tools.length === 0) return {};
  const functionDeclarations = tools.map((tool) => declaration(tool, schemaMode));
  const toolConfig = functionCallingConfig(toolChoice);
  return { tools: [{ functionDeclarations }], ...(toolConfig === undefined ? {} : { toolConfig }) };
}

function declaration(tool: ToolDefinition, schemaMode: GeminiToolSchemaMode): GeminiFunctionDeclaration {
  const base = { name: tool.name, description: tool.description };
  if (schemaMode === 'json-schema') {
    const { $schema: _schema, ...schema } = tool.inputSchema;
    return { ...base, parametersJsonSchema: schema };
  }
  const parameters = toGeminiSchema(tool.inputSchema);
  return parameters === undefined ? base : { ...base, parameters };
}

function functionCallingConfig(toolChoice: ToolChoice | undefined): GeminiToolConfig | undefined {
  if (toolChoice === undefined) return undefined;
  if (toolChoice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (toolChoice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (toolChoice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [toolChoice.name] } };
}
