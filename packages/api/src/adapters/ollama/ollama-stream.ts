import { checkToolInputValue, parseToolInput, type ToolInputParseResult } from '../../shared/tool-input.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { ollamaStreamError } from './ollama-errors.js';
import { mapOllamaDoneReason } from './ollama-finish-reason.js';
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
  private errored = false;

  constructor(private readonly options: OllamaResponseMapperOptions) {
    this.idToken = options.idToken ?? Math.random().toString(36).slice(2, 10);
  }

  /** Whether an `{error}` line arrived; the mapper ignores everything after it. */
  get failed(): boolean {
    return this.errored;
  }

  /**
   * Appends the events for one reply line (or the whole reply) to `out` and returns it. Events go
   * into an array (not a generator) because streams map a whole network chunk in one synchronous pass.
   */
  push(line: OllamaChatResponse, out: StreamEvent[] = []): StreamEvent[] {
    if (this.errored || this.final !== undefined) return out;
    if (line.error !== undefined) {
      this.errored = true;
      out.push({
        type: 'error',
        error: ollamaStreamError(line.error, { providerId: this.options.providerId, model: this.options.model }),
      });
      return out;
    }
    if (!this.started) {
      this.started = true;
      out.push({ type: 'message-start', ...(line.model === undefined ? {} : { model: line.model }) });
    }
    const message = line.message;
    if (message !== undefined) {
      if (message.thinking !== undefined && message.thinking !== '') this.delta('thinking', message.thinking, out);
      if (message.content !== undefined && message.content !== '') this.delta('text', message.content, out);
      if (message.tool_calls !== undefined) for (const call of message.tool_calls) this.toolCall(call, out);
    }
    if (line.done === true) this.final = line;
    return out;
  }

  /**
   * Closes the message. Without the `done: true` line and with `requireDone` set (streams), nothing
   * is emitted, so the stream counts as cut short. Appends to `out` and returns it.
   */
  end(requireDone: boolean, out: StreamEvent[] = []): StreamEvent[] {
    if (this.errored || (requireDone && this.final === undefined)) return out;
    if (!this.started) out.push({ type: 'message-start' });
    this.close(out);
    const final = this.final ?? {};
    out.push({
      type: 'message-end',
      finishReason: mapOllamaDoneReason(final.done_reason, this.hasToolCalls),
      usage: mapOllamaUsage(final),
      ...rawOllamaCounts(final),
    });
    return out;
  }

  private delta(kind: 'text' | 'thinking', text: string, out: StreamEvent[]): void {
    let open = this.open;
    if (open?.kind !== kind) {
      this.close(out);
      open = { kind, blockId: String(this.nextBlock++) };
      this.open = open;
      out.push({ type: kind === 'text' ? 'text-start' : 'thinking-start', blockId: open.blockId });
    }
    out.push({ type: kind === 'text' ? 'text-delta' : 'thinking-delta', blockId: open.blockId, delta: text });
  }

  private toolCall(call: OllamaResponseToolCall, out: StreamEvent[]): void {
    this.close(out);
    const blockId = String(this.nextBlock++);
    const toolCallId = this.uniqueId(call.id ?? `call_${this.idToken}_${blockId}`);
    const toolName = call.function.name;
    this.hasToolCalls = true;
    out.push({ type: 'tool-call-start', blockId, toolCallId, toolName });
    const parsed = readArguments(call.function.arguments);
    const delta = parsed.ok ? JSON.stringify(parsed.input) : parsed.error.rawInput;
    if (delta !== '' && delta !== '{}') out.push({ type: 'tool-call-input-delta', blockId, delta });
    out.push({
      type: 'tool-call-end',
      blockId,
      toolCallId,
      toolName,
      ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
      ...(call.id === undefined ? {} : { providerMetadata: { ollama: { toolCallId: call.id } } }),
    });
  }

  private close(out: StreamEvent[]): void {
    const open = this.open;
    if (open === undefined) return;
    this.open = undefined;
    out.push({ type: open.kind === 'text' ? 'text-end' : 'thinking-end', blockId: open.blockId });
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

const OLLAMA_COUNT_FIELDS = [
  'prompt_eval_count',
  'eval_count',
  'total_duration',
  'load_duration',
  'prompt_eval_duration',
  'eval_duration',
] as const;

/** Ollama has no usage object: `raw` holds the count and duration fields of the `done` line as sent. */
function rawOllamaCounts(final: object): { raw?: Record<string, unknown> } {
  const raw: Record<string, unknown> = {};
  for (const field of OLLAMA_COUNT_FIELDS) {
    const value = (final as Record<string, unknown>)[field];
    if (value !== undefined && value !== null) raw[field] = value;
  }
  return Object.keys(raw).length === 0 ? {} : { raw };
}
