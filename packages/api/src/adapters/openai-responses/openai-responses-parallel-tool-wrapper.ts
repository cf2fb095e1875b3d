import { parseToolInput } from '../../shared/tool-input.js';
import type { JsonObject } from '../../spec/json-value.js';

/**
 * Names under which OpenAI models sometimes call their internal parallel-call wrapper instead of
 * the declared tools, with arguments `{"tool_uses": [{"recipient_name": "functions.weather",
 * "parameters": {...}}, ...]}` (recorded in the fixture `parallel-tool-call-wrapper.1`).
 */
const PARALLEL_WRAPPER_NAMES: ReadonlySet<string> = new Set(['multi_tool_use.parallel', 'parallel']);

/** One call taken out of a parallel wrapper. */
export interface UnwrappedToolCall {
  name: string;
  input: JsonObject;
}

/**
 * Whether a function call named `name` may be the parallel wrapper: it has a wrapper name and the
 * request declared tools but none by that name (a user's own tool called `parallel` is never
 * touched).
 */
export function isParallelWrapperCandidate(name: string, declaredToolNames: ReadonlySet<string>): boolean {
  return declaredToolNames.size > 0 && PARALLEL_WRAPPER_NAMES.has(name) && !declaredToolNames.has(name);
}

/**
 * Expands the parallel wrapper's arguments into the calls it stands for, or returns `undefined`
 * when they are not exactly that shape: valid JSON, a non-empty `tool_uses` array, each entry
 * naming a declared tool (`functions.` prefix removed) with object `parameters` (missing = `{}`).
 * Anything else is left as the model sent it, so nothing is guessed.
 */
export function expandParallelToolWrapper(
  argumentsText: string,
  declaredToolNames: ReadonlySet<string>,
): UnwrappedToolCall[] | undefined {
  const parsed = parseToolInput(argumentsText);
  if (!parsed.ok) return undefined;
  const uses = parsed.input.tool_uses;
  if (!Array.isArray(uses) || uses.length === 0) return undefined;
  const calls: UnwrappedToolCall[] = [];
  for (const use of uses) {
    if (!isObject(use) || typeof use.recipient_name !== 'string') return undefined;
    const name = use.recipient_name.replace(/^functions\./, '');
    if (!declaredToolNames.has(name)) return undefined;
    const parameters = use.parameters ?? {};
    if (!isObject(parameters)) return undefined;
    calls.push({ name, input: parameters });
  }
  return calls;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
