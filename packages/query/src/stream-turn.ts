import { type AssistantResponse, type LlmError, MessageAssembler, type StreamEvent, toLlmError } from '@boxagnts/api';
import type { TextDeltaEvent, ThinkingDeltaEvent } from './events.js';

/** How one streamed model call ended. */
export type TurnResult =
  | { ok: true; response: AssistantResponse }
  | { ok: false; error: LlmError; partialOutput: boolean; tooLarge?: undefined }
  /** The reply passed the output cap: the stream was dropped, nothing of it kept. */
  | { ok: false; tooLarge: { limitChars: number; receivedChars: number }; partialOutput: true };

/** Characters one model reply may stream (text, thinking and tool arguments) unless configured. */
export const DEFAULT_MAX_TURN_OUTPUT_CHARS = 4_000_000;

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
  private outputChars = 0;
  private overLimit = false;

  constructor(
    private readonly turn: number,
    private readonly providerId: string,
    /** Characters of output the reply may stream before it is dropped. */
    private readonly maxOutputChars = DEFAULT_MAX_TURN_OUTPUT_CHARS,
  ) {}

  /** Whether the call has ended (a final event, an error event, a thrown error, or the output cap). */
  get done(): boolean {
    return this.failure !== undefined || this.overLimit || this.assembler.done;
  }

  /** Applies one provider event; returns the delta event to yield, if it is one. */
  push(event: StreamEvent): TextDeltaEvent | ThinkingDeltaEvent | undefined {
    if (
      event.type === 'text-delta' ||
      event.type === 'thinking-delta' ||
      event.type === 'tool-call-input-delta' ||
      event.type === 'thinking-signature-delta'
    ) {
      // Counted before the assembler joins it: a reply past the cap is never built as one string.
      this.outputChars += event.delta.length;
      if (this.outputChars > this.maxOutputChars) {
        this.overLimit = true;
        return undefined;
      }
    }
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
    if (this.overLimit) {
      return {
        ok: false,
        tooLarge: { limitChars: this.maxOutputChars, receivedChars: this.outputChars },
        partialOutput: true,
      };
    }
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
