import type { FinishReason } from '../../spec/usage.js';

/**
 * Maps Ollama's `done_reason` to the unified finish reason, keeping the raw value: `stop` (a plain
 * stop, also after tool calls, which `hasToolCalls` turns into `tool-calls`), `length` (the
 * `num_predict` limit or the context was hit), and `load` / `unload` (a request that only loaded or
 * unloaded the model), which are `other` like anything this table does not know.
 *
 * @see https://github.com/ollama/ollama/blob/main/api/types.go
 * @see https://docs.ollama.com/api/chat
 */
export function mapOllamaDoneReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  switch (raw) {
    case 'stop':
    // Older Ollama versions end with `done: true` and no reason: a plain stop.
    case undefined:
      return { unified: hasToolCalls ? 'tool-calls' : 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    default:
      return { unified: 'other', raw };
  }
}
