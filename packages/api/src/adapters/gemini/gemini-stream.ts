import { checkToolInputValue, parseToolInput, type ToolInputParseResult } from '../../shared/tool-input.js';
import type { LlmError } from '../../spec/llm-error.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';
import type { StreamEvent } from '../../spec/stream-event.js';
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
  private nextBlock = 0;
  private open: OpenBlock | undefined;
  private readonly usedIds = new Set<string>();
  private readonly idToken: string;
  private hasToolCalls = false;
  private finishRaw: string | undefined;
  private blockReason: string | undefined;
  private usage: GeminiUsageMetadata | undefined;
  private failed = false;

  constructor(private readonly options: GeminiResponseMapperOptions) {
    this.idToken = options.idToken ?? Math.random().toString(36).slice(2, 10);
  }

  /** Whether the response said how it finished (so it is complete). */
  get finished(): boolean {
    return this.finishRaw !== undefined || this.blockReason !== undefined;
  }

  /** Events for one response object. */
  *push(response: GeminiResponse): Generator<StreamEvent, void, undefined> {
    if (this.failed) return;
    if (response.error !== undefined) {
      this.failed = true;
      yield { type: 'error', error: this.streamError(response.error) };
      return;
    }
    if (!this.started) {
      this.started = true;
      yield {
        type: 'message-start',
        ...(response.responseId === undefined ? {} : { id: response.responseId }),
        ...(response.modelVersion === undefined ? {} : { model: response.modelVersion }),
      };
    }
    if (hasTokenCounts(response.usageMetadata)) this.usage = response.usageMetadata;
    if (response.promptFeedback?.blockReason !== undefined && (response.candidates?.length ?? 0) === 0) {
      this.blockReason = response.promptFeedback.blockReason;
    }
    const candidate = response.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) yield* this.part(part);
    if (candidate?.finishReason !== undefined) this.finishRaw = candidate.finishReason;
  }

  /**
   * Closes the message: the open block's end and `message-end`. When no finish reason arrived and
   * `requireFinish` is set (streams), nothing is emitted, so the stream counts as cut short.
   */
  *end(requireFinish: boolean): Generator<StreamEvent, void, undefined> {
    if (this.failed || (requireFinish && !this.finished)) return;
    if (!this.started) yield { type: 'message-start' };
    yield* this.close();
    const finishReason: FinishReason =
      this.blockReason !== undefined
        ? mapGeminiBlockReason(this.blockReason)
        : mapGeminiFinishReason(this.finishRaw, this.hasToolCalls);
    yield { type: 'message-end', finishReason, usage: mapGeminiUsage(this.usage) };
  }

  private *part(part: GeminiResponsePart): Generator<StreamEvent, void, undefined> {
    if (part.functionCall !== undefined) {
      yield* this.functionCall(part.functionCall, part.thoughtSignature);
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
        yield* this.close();
        const blockId = this.openBlock(kind, part.thoughtSignature);
        yield { type: 'thinking-start', blockId };
      }
      return;
    }
    if (open === undefined || open.kind !== kind || open.signature !== undefined) {
      yield* this.close();
      const blockId = this.openBlock(kind, undefined);
      yield { type: kind === 'text' ? 'text-start' : 'thinking-start', blockId };
    }
    const current = this.open as Extract<OpenBlock, { kind: 'text' | 'thinking' }>;
    yield { type: kind === 'text' ? 'text-delta' : 'thinking-delta', blockId: current.blockId, delta: text };
    if (part.thoughtSignature !== undefined) current.signature = part.thoughtSignature;
  }

  private *functionCall(
    call: GeminiFunctionCall,
    signature: string | undefined,
  ): Generator<StreamEvent, void, undefined> {
    const open = this.open;
    if (open?.kind === 'tool' && call.name === undefined) {
      // The next piece of a call whose arguments are streamed.
      applyPartialArgs(open.args, call.partialArgs ?? []);
      if (signature !== undefined) open.signature ??= signature;
      if (call.willContinue !== true) yield* this.close();
      return;
    }
    if (call.name === undefined) return;
    yield* this.close();
    const blockId = String(this.nextBlock++);
    const toolCallId = this.uniqueId(call.id ?? `call_${this.idToken}_${blockId}`);
    this.hasToolCalls = true;
    yield { type: 'tool-call-start', blockId, toolCallId, toolName: call.name };
    if (call.willContinue === true) {
      const args = createPartialArguments();
      applyPartialArgs(args, call.partialArgs ?? []);
      this.open = { kind: 'tool', blockId, toolCallId, name: call.name, functionCallId: call.id, signature, args };
      return;
    }
    yield* this.endToolCall(blockId, toolCallId, call.name, call.id, signature, readArguments(call.args));
  }

  private *endToolCall(
    blockId: string,
    toolCallId: string,
    toolName: string,
    functionCallId: string | undefined,
    signature: string | undefined,
    parsed: ToolInputParseResult,
  ): Generator<StreamEvent, void, undefined> {
    const delta = parsed.ok ? JSON.stringify(parsed.input) : parsed.error.rawInput;
    if (delta !== '' && delta !== '{}') yield { type: 'tool-call-input-delta', blockId, delta };
    const metadata = geminiMetadata({
      ...(signature === undefined ? {} : { thoughtSignature: signature }),
      ...(functionCallId === undefined ? {} : { functionCallId }),
    });
    yield {
      type: 'tool-call-end',
      blockId,
      toolCallId,
      toolName,
      ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
      ...(metadata === undefined ? {} : { providerMetadata: metadata }),
    };
  }

  private *close(): Generator<StreamEvent, void, undefined> {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    if (open.kind === 'tool') {
      yield* this.endToolCall(
        open.blockId,
        open.toolCallId,
        open.name,
        open.functionCallId,
        open.signature,
        checkToolInputValue(open.args.value),
      );
      return;
    }
    const metadata = geminiMetadata(open.signature === undefined ? {} : { thoughtSignature: open.signature });
    const extra = metadata === undefined ? {} : { providerMetadata: metadata };
    yield open.kind === 'text'
      ? { type: 'text-end', blockId: open.blockId, ...extra }
      : { type: 'thinking-end', blockId: open.blockId, ...extra };
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
