import {
  type AssistantResponse,
  type LlmError,
  type LlmProvider,
  type LlmRequest,
  MessageAssembler,
  toLlmError,
} from '@boxagnts/api';
import type { QueryEvent } from './events.js';

/** How one streamed model call ended. */
export type TurnResult =
  | { ok: true; response: AssistantResponse }
  | { ok: false; error: LlmError; partialOutput: boolean };

/**
 * Streams one model call, yielding text and thinking deltas as they arrive, and returns the
 * assembled response or the error (never throws).
 */
export async function* streamTurn(
  provider: LlmProvider,
  request: LlmRequest,
  signal: AbortSignal,
  turn: number,
): AsyncGenerator<QueryEvent, TurnResult> {
  const assembler = new MessageAssembler();
  let partialOutput = false;
  try {
    for await (const event of provider.streamMessage(request, { signal })) {
      assembler.push(event);
      switch (event.type) {
        case 'text-delta':
          partialOutput = true;
          yield { type: 'text-delta', turn, delta: event.delta };
          break;
        case 'thinking-delta':
          partialOutput = true;
          yield { type: 'thinking-delta', turn, delta: event.delta };
          break;
        case 'tool-call-start':
          partialOutput = true;
          break;
        case 'error':
          return { ok: false, error: event.error, partialOutput };
        default:
          break;
      }
      if (assembler.done) break;
    }
  } catch (error) {
    return { ok: false, error: toLlmError(error, { providerId: provider.id, signal }), partialOutput };
  }
  if (assembler.error !== undefined) return { ok: false, error: assembler.error, partialOutput };
  if (!assembler.done) {
    return {
      ok: false,
      error: toLlmError(new Error('The stream ended without a final event.'), { providerId: provider.id }),
      partialOutput,
    };
  }
  return { ok: true, response: assembler.toResponse() };
}
