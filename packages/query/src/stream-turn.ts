import { type AssistantResponse, type LlmError, MessageAssembler, type StreamEvent, toLlmError } from '@boxagnts/api';
import type { TextDeltaEvent, ThinkingDeltaEvent } from './events.js';

/** How one streamed model call ended. */
export type TurnResult =
  | { ok: true; response: AssistantResponse }
  | { ok: false; error: LlmError; partialOutput: boolean };

/**
 * One streamed model call as the loop reads it: `push` each provider event (it returns the text or
 * thinking delta to pass on), stop once `done`, then take the `result`: the assembled response or
 * the error. The loop iterates the provider itself (not through a nested generator, which would
 * cost a generator and a promise hop per call); this holds what that iteration decides.
 */
export class TurnStream {
  private readonly assembler = new MessageAssembler();
  private partialOutput = false;
  private failure: LlmError | undefined;

  constructor(
    private readonly turn: number,
    private readonly providerId: string,
  ) {}

  /** Whether the call has ended (a final event, an error event, or a thrown error). */
  get done(): boolean {
    return this.failure !== undefined || this.assembler.done;
  }

  /** Applies one provider event; returns the delta event to yield, if it is one. */
  push(event: StreamEvent): TextDeltaEvent | ThinkingDeltaEvent | undefined {
    this.assembler.push(event);
    switch (event.type) {
      case 'text-delta':
        this.partialOutput = true;
        return { type: 'text-delta', turn: this.turn, delta: event.delta };
      case 'thinking-delta':
        this.partialOutput = true;
        return { type: 'thinking-delta', turn: this.turn, delta: event.delta };
      case 'tool-call-start':
        this.partialOutput = true;
        return undefined;
      case 'error':
        this.failure = event.error;
        return undefined;
      default:
        return undefined;
    }
  }

  /** The stream threw (or the provider did): the call failed with that error. */
  fail(error: unknown, signal: AbortSignal): void {
    this.failure ??= toLlmError(error, { providerId: this.providerId, signal });
  }

  /** How the call ended, once the stream is over. */
  result(): TurnResult {
    const failure = this.failure ?? this.assembler.error;
    if (failure !== undefined) return { ok: false, error: failure, partialOutput: this.partialOutput };
    if (!this.assembler.done) {
      return {
        ok: false,
        error: toLlmError(new Error('The stream ended without a final event.'), { providerId: this.providerId }),
        partialOutput: this.partialOutput,
      };
    }
    return { ok: true, response: this.assembler.toResponse() };
  }
}
