import { checkToolInputValue, parseToolInput, type ToolInputParseResult } from '../../shared/tool-input.js';
import type { LlmError } from '../../spec/llm-error.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { SplicedStreamError } from '../../spec/stream-protocol-errors.js';
import type { FinishReason } from '../../spec/usage.js';
import { geminiStreamError } from './gemini-errors.js';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './gemini-finish-reason.js';
import { applyPartialArgs, createPartialArguments, type PartialArguments } from './gemini-partial-args.js';
import { hasTokenCounts, mapGeminiUsage } from './gemini-usage.js';
import type { GeminiFunctionCall, GeminiResponse, GeminiResponsePart, GeminiUsageMetadata } from './gemini-wire.js';

/** Options of {@link GeminiResponseMapper}. */
export interface GeminiResponseMapperOptions {
  providerId: string;
  /** The key in use, masked in error messages. */
  knownSecrets?: readonly string[];
  /** Token for generated tool-call ids; random by default. */
  idToken?: string;
}

type OpenBlock =
  | { kind: 'text' | 'thinking'; blockId: string; signature: string | undefined }
  | {
      kind: 'tool';
      blockId: string;
      toolCallId: string;
      name: string;
      functionCallId: string | undefined;
      signature: string | undefined;
      args: PartialArguments;
    };

/**
 * Turns Gemini `GenerateContentResponse` objects (each chunk of `streamGenerateContent?alt=sse`, or
 * the one body of `generateContent`) into block-scoped stream events. Only the first candidate is
 * read.
 *
 * - Consecutive text parts (and consecutive `thought: true` parts) form one block; a part that
 *   carries a `thoughtSignature` ends its block, so the signature stays on the part it came with. A
 *   signature on an empty part (how streams deliver the last part's signature) goes to the open
 *   block of the same kind; an empty thought part with a signature and nothing open becomes an
 *   empty thinking block holding it; an empty text part's signature with no text block open is
 *   dropped (it is optional outside function calls). Other empty text is ignored.
 * - Signatures and Gemini's own function-call ids are stored under `providerMetadata.gemini`.
 * - A function call is one tool call, arguments and all. Calls whose arguments are streamed
 *   (`willContinue` with `partialArgs`, Vertex AI's Gemini 3 streaming) are assembled and emitted
 *   as one argument delta when the call ends. Arguments that are not an object give `inputError`.
 * - Tool-call ids: Gemini's `id` when it sends one, else `call_<token>_<block index>` (the token is
 *   per message, so ids stay unique across turns); an id already used in the message gets `_2`,
 *   `_3`, … appended.
 * - An `{error}` chunk becomes an `error` event classified like an HTTP error.
 * - The message ends (`message-end`) only after a `finishReason` or a prompt `blockReason` was seen;
 *   a stream that stops without one was cut, and the caller reports it as a network error.
 */
export class GeminiResponseMapper {
  private started = false;
  private responseId: string | undefined;
  private nextBlock = 0;
  private open: OpenBlock | undefined;
  private readonly usedIds = new Set<string>();
  private readonly idToken: string;
  private hasToolCalls = false;
  private finishRaw: string | undefined;
  private blockReason: string | undefined;
  private usage: GeminiUsageMetadata | undefined;
  private errored = false;

  constructor(private readonly options: GeminiResponseMapperOptions) {
    this.idToken = options.idToken ?? Math.random().toString(36).slice(2, 10);
  }

  /** Whether the response said how it finished (so it is complete). */
  get finished(): boolean {
    return this.finishRaw !== undefined || this.blockReason !== undefined;
  }

  /** Whether an `{error}` chunk arrived; the mapper ignores everything after it. */
  get failed(): boolean {
    return this.errored;
  }

  /**
   * Appends the events for one response object to `out` and returns it. Events go into an array
   * (not a generator) because streams map a whole network chunk in one synchronous pass.
   */
  push(response: GeminiResponse, out: StreamEvent[] = []): StreamEvent[] {
    if (this.errored) return out;
    if (response.error !== undefined) {
      this.errored = true;
      out.push({ type: 'error', error: this.streamError(response.error) });
      return out;
    }
    if (response.responseId !== undefined && response.responseId !== '') {
      if (this.responseId !== undefined && response.responseId !== this.responseId) {
        // Another response spliced into this stream: never merged into the first.
        this.errored = true;
        out.push({
          type: 'error',
          error: new SplicedStreamError({
            providerId: this.options.providerId,
            kind: 'changed-message-id',
            firstMessageId: this.responseId,
            secondMessageId: response.responseId,
          }),
        });
        return out;
      }
      this.responseId = response.responseId;
    }
    if (!this.started) {
      this.started = true;
      out.push({
        type: 'message-start',
        ...(response.responseId === undefined ? {} : { id: response.responseId }),
        ...(response.modelVersion === undefined ? {} : { model: response.modelVersion }),
      });
    }
    if (hasTokenCounts(response.usageMetadata)) this.usage = response.usageMetadata;
    if (response.promptFeedback?.blockReason !== undefined && (response.candidates?.length ?? 0) === 0) {
      this.blockReason = response.promptFeedback.blockReason;
    }
    const candidate = response.candidates?.[0];
    const parts = candidate?.content?.parts;
    if (parts !== undefined) for (const part of parts) this.part(part, out);
    if (candidate?.finishReason !== undefined) this.finishRaw = candidate.finishReason;
    return out;
  }

  /**
   * Closes the message: the open block's end and `message-end`. When no finish reason arrived and
   * `requireFinish` is set (streams), nothing is emitted, so the stream counts as cut short. Appends
   * to `out` and returns it.
   */
  end(requireFinish: boolean, out: StreamEvent[] = []): StreamEvent[] {
    if (this.errored || (requireFinish && !this.finished)) return out;
    if (!this.started) out.push({ type: 'message-start' });
    this.close(out);
    const finishReason: FinishReason =
      this.blockReason !== undefined
        ? mapGeminiBlockReason(this.blockReason)
        : mapGeminiFinishReason(this.finishRaw, this.hasToolCalls);
    out.push({
      type: 'message-end',
      finishReason,
      usage: mapGeminiUsage(this.usage),
      ...(this.usage === undefined ? {} : { raw: this.usage }),
    });
    return out;
  }

  private part(part: GeminiResponsePart, out: StreamEvent[]): void {
    if (part.functionCall !== undefined) {
      this.functionCall(part.functionCall, part.thoughtSignature, out);
      return;
    }
    if (part.text === undefined && part.thought !== true) return;
    const kind = part.thought === true ? 'thinking' : 'text';
    const text = part.text ?? '';
    const open = this.open;
    if (text === '') {
      if (part.thoughtSignature !== undefined && open?.kind === kind && open.signature === undefined) {
        open.signature = part.thoughtSignature;
      } else if (kind === 'thinking' && part.thoughtSignature !== undefined) {
        // A thought part that carries only a signature is a thinking block of its own.
        this.close(out);
        const blockId = this.openBlock(kind, part.thoughtSignature);
        out.push({ type: 'thinking-start', blockId });
      }
      return;
    }
    if (open === undefined || open.kind !== kind || open.signature !== undefined) {
      this.close(out);
      const blockId = this.openBlock(kind, undefined);
      out.push({ type: kind === 'text' ? 'text-start' : 'thinking-start', blockId });
    }
    const current = this.open as Extract<OpenBlock, { kind: 'text' | 'thinking' }>;
    out.push({ type: kind === 'text' ? 'text-delta' : 'thinking-delta', blockId: current.blockId, delta: text });
    if (part.thoughtSignature !== undefined) current.signature = part.thoughtSignature;
  }

  private functionCall(call: GeminiFunctionCall, signature: string | undefined, out: StreamEvent[]): void {
    const open = this.open;
    if (open?.kind === 'tool' && call.name === undefined) {
      // The next piece of a call whose arguments are streamed.
      applyPartialArgs(open.args, call.partialArgs ?? []);
      if (signature !== undefined) open.signature ??= signature;
      if (call.willContinue !== true) this.close(out);
      return;
    }
    if (call.name === undefined) return;
    this.close(out);
    const blockId = String(this.nextBlock++);
    const toolCallId = this.uniqueId(call.id ?? `call_${this.idToken}_${blockId}`);
    this.hasToolCalls = true;
    out.push({ type: 'tool-call-start', blockId, toolCallId, toolName: call.name });
    if (call.willContinue === true) {
      const args = createPartialArguments();
      applyPartialArgs(args, call.partialArgs ?? []);
      this.open = { kind: 'tool', blockId, toolCallId, name: call.name, functionCallId: call.id, signature, args };
      return;
    }
    this.endToolCall(blockId, toolCallId, call.name, call.id, signature, readArguments(call.args), out);
  }

  private endToolCall(
    blockId: string,
    toolCallId: string,
    toolName: string,
    functionCallId: string | undefined,
    signature: string | undefined,
    parsed: ToolInputParseResult,
    out: StreamEvent[],
  ): void {
    const delta = parsed.ok ? JSON.stringify(parsed.input) : parsed.error.rawInput;
    if (delta !== '' && delta !== '{}') out.push({ type: 'tool-call-input-delta', blockId, delta });
    const metadata = geminiMetadata({
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
      ...(functionCallId === undefined ? {} : { functionCallId }),
    });
    out.push({
      type: 'tool-call-end',
      blockId,
      toolCallId,
      toolName,
      ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
      ...(metadata === undefined ? {} : { providerMetadata: metadata }),
    });
  }

  private close(out: StreamEvent[]): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    if (open.kind === 'tool') {
      this.endToolCall(
        open.blockId,
        open.toolCallId,
        open.name,
        open.functionCallId,
        open.signature,
        checkToolInputValue(open.args.value),
        out,
      );
      return;
    }
    const metadata = geminiMetadata(open.signature === undefined ? {} : { thoughtSignature: open.signature });
    const extra = metadata === undefined ? {} : { providerMetadata: metadata };
    out.push(
      open.kind === 'text'
        ? { type: 'text-end', blockId: open.blockId, ...extra }
        : { type: 'thinking-end', blockId: open.blockId, ...extra },
    );
  }

  private openBlock(kind: 'text' | 'thinking', signature: string | undefined): string {
    const blockId = String(this.nextBlock++);
    this.open = { kind, blockId, signature };
    return blockId;
  }

  private uniqueId(id: string): string {
    let candidate = id;
    for (let suffix = 2; this.usedIds.has(candidate); suffix += 1) candidate = `${id}_${suffix}`;
    this.usedIds.add(candidate);
    return candidate;
  }

  private streamError(error: NonNullable<GeminiResponse['error']>): LlmError {
    return geminiStreamError(error, {
      providerId: this.options.providerId,
      ...(this.options.knownSecrets === undefined ? {} : { knownSecrets: this.options.knownSecrets }),
    });
  }
}

/** `args` as Gemini sent it: an object (checked against the limits), text (parsed), or nothing. */
function readArguments(args: unknown): ToolInputParseResult {
  if (args === undefined || args === null) return { ok: true, input: {} };
  if (typeof args === 'string') return parseToolInput(args);
  return checkToolInputValue(args);
}

function geminiMetadata(values: Record<string, string>): ProviderMetadata | undefined {
  return Object.keys(values).length === 0 ? undefined : { gemini: values };
}
