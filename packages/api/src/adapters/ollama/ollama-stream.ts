import { checkToolInputValue, parseToolInput, type ToolInputParseResult } from '../../shared/tool-input.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { mapOllamaDoneReason } from './ollama-done-reason.js';
import { ollamaStreamError } from './ollama-errors.js';
import { mapOllamaUsage } from './ollama-usage.js';
import type { OllamaChatResponse, OllamaResponseToolCall } from './ollama-wire.js';

/** Options of {@link OllamaResponseMapper}. */
export interface OllamaResponseMapperOptions {
  providerId: string;
  /** The requested model, named in a "not found" error. */
  model: string;
  /** Token for generated tool-call ids; random by default. */
  idToken?: string;
}

/**
 * Turns Ollama `/api/chat` replies (each NDJSON line of a stream, or the one body with `stream:
 * false`) into block-scoped stream events.
 *
 * - `message.thinking` pieces form a thinking block and `message.content` pieces a text block; a
 *   change from one to the other closes the open block.
 * - Each entry of `message.tool_calls` is a whole call (Ollama sends arguments as an object, never in
 *   pieces): one start, one argument delta, one end. Arguments that are not an object give
 *   `inputError`.
 * - Tool-call ids: Ollama's `id` when it sends one (kept in `providerMetadata.ollama.toolCallId`),
 *   else `call_<token>_<block index>` (the token is per message, so ids stay unique across turns); an
 *   id already used in the message gets `_2`, `_3`, … appended.
 * - An `{"error": "..."}` line becomes an `error` event, classified by its wording.
 * - The message ends only after the `done: true` line; a stream that stops before it was cut.
 */
export class OllamaResponseMapper {
  private started = false;
  private nextBlock = 0;
  private open: { kind: 'text' | 'thinking'; blockId: string } | undefined;
  private readonly usedIds = new Set<string>();
  private readonly idToken: string;
  private hasToolCalls = false;
  private final: OllamaChatResponse | undefined;
  private failed = false;

  constructor(private readonly options: OllamaResponseMapperOptions) {
    this.idToken = options.idToken ?? Math.random().toString(36).slice(2, 10);
  }

  /** Events for one reply line (or the whole reply). */
  *push(line: OllamaChatResponse): Generator<StreamEvent, void, undefined> {
    if (this.failed || this.final !== undefined) return;
    if (line.error !== undefined) {
      this.failed = true;
      yield {
        type: 'error',
        error: ollamaStreamError(line.error, { providerId: this.options.providerId, model: this.options.model }),
      };
      return;
    }
    if (!this.started) {
      this.started = true;
      yield { type: 'message-start', ...(line.model === undefined ? {} : { model: line.model }) };
    }
    const message = line.message;
    if (message?.thinking !== undefined && message.thinking !== '') yield* this.delta('thinking', message.thinking);
    if (message?.content !== undefined && message.content !== '') yield* this.delta('text', message.content);
    for (const call of message?.tool_calls ?? []) yield* this.toolCall(call);
    if (line.done === true) this.final = line;
  }

  /**
   * Closes the message. Without the `done: true` line and with `requireDone` set (streams), nothing
   * is emitted, so the stream counts as cut short.
   */
  *end(requireDone: boolean): Generator<StreamEvent, void, undefined> {
    if (this.failed || (requireDone && this.final === undefined)) return;
    if (!this.started) yield { type: 'message-start' };
    yield* this.close();
    const final = this.final ?? {};
    yield {
      type: 'message-end',
      finishReason: mapOllamaDoneReason(final.done_reason, this.hasToolCalls),
      usage: mapOllamaUsage(final),
    };
  }

  private *delta(kind: 'text' | 'thinking', text: string): Generator<StreamEvent, void, undefined> {
    if (this.open?.kind !== kind) {
      yield* this.close();
      const blockId = String(this.nextBlock++);
      this.open = { kind, blockId };
      yield { type: kind === 'text' ? 'text-start' : 'thinking-start', blockId };
    }
    const blockId = this.open?.blockId ?? '';
    yield { type: kind === 'text' ? 'text-delta' : 'thinking-delta', blockId, delta: text };
  }

  private *toolCall(call: OllamaResponseToolCall): Generator<StreamEvent, void, undefined> {
    yield* this.close();
    const blockId = String(this.nextBlock++);
    const toolCallId = this.uniqueId(call.id ?? `call_${this.idToken}_${blockId}`);
    const toolName = call.function.name;
    this.hasToolCalls = true;
    yield { type: 'tool-call-start', blockId, toolCallId, toolName };
    const parsed = readArguments(call.function.arguments);
    const delta = parsed.ok ? JSON.stringify(parsed.input) : parsed.error.rawInput;
    if (delta !== '' && delta !== '{}') yield { type: 'tool-call-input-delta', blockId, delta };
    yield {
      type: 'tool-call-end',
      blockId,
      toolCallId,
      toolName,
      ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
      ...(call.id === undefined ? {} : { providerMetadata: { ollama: { toolCallId: call.id } } }),
    };
  }

  private *close(): Generator<StreamEvent, void, undefined> {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    yield { type: open.kind === 'text' ? 'text-end' : 'thinking-end', blockId: open.blockId };
  }

  private uniqueId(id: string): string {
    let candidate = id;
    for (let suffix = 2; this.usedIds.has(candidate); suffix += 1) candidate = `${id}_${suffix}`;
    this.usedIds.add(candidate);
    return candidate;
  }
}

/** Arguments as Ollama sent them: an object (checked against the limits), text (parsed), or nothing. */
function readArguments(args: unknown): ToolInputParseResult {
  if (args === undefined || args === null) return { ok: true, input: {} };
  if (typeof args === 'string') return parseToolInput(args);
  return checkToolInputValue(args);
}
