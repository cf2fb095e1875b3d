import type { SseEvent } from '../../shared/sse-parser.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { SplicedStreamError } from '../../spec/stream-protocol-errors.js';
import { classifyOpenAIResponsesStreamError } from './openai-responses-errors.js';
import { mapOpenAIResponsesFinishReason } from './openai-responses-finish-reason.js';
import {
  closeReasoningItem,
  closeTextParts,
  finishReasoningItem,
  type MessageItem,
  openReasoningPart,
  openTextPart,
  type ReasoningItem,
} from './openai-responses-output-blocks.js';
import { OpenAIResponsesToolCalls, type ToolCallItem } from './openai-responses-tool-calls.js';
import { mapOpenAIResponsesUsage } from './openai-responses-usage.js';
import {
  type OpenAIResponsesOutputItem,
  openaiResponsesErrorSchema,
  openaiResponsesResponseSchema,
  readResponsesOutputItem,
  readResponsesResponse,
} from './openai-responses-wire.js';

type ItemState = MessageItem | ReasoningItem | ToolCallItem;

/** Options of {@link OpenAIResponsesStreamMapper}. */
export interface OpenAIResponsesStreamMapperOptions {
  providerId: string;
  /** Names of the tools the request declared (to recognise the parallel-call wrapper). */
  declaredToolNames: ReadonlySet<string>;
}

const MAX_SKIPPED_NAMES = 5;

/**
 * Turns the Responses API's semantic SSE events into block-scoped stream events, one event at a
 * time (one per wire event, in one pass). Blocks: each `output_text` / `refusal` content part is a
 * text block, each reasoning summary part (or `reasoning_text` part) a thinking block, a reasoning
 * item without any text a `redacted_thinking` block holding its `encrypted_content`, each
 * `function_call` / `custom_tool_call` a tool call (its id is the `call_id`). Provider metadata
 * records what replay needs (see `OpenAIResponsesBlockMetadata`).
 *
 * Robustness, by design:
 * - an event whose data is not valid JSON is skipped and the stream goes on; calls, text and
 *   reasoning whose events parsed are still assembled (the `*.done` events carry complete
 *   arguments, which win over the deltas). If the stream then ends without a readable
 *   `response.completed` / `.incomplete`, {@link finish} reports one `unknown` (retryable) error
 *   naming the skipped events, instead of a silent success;
 * - `keepalive`, `[DONE]` and events of server-side tools yield nothing;
 * - a missing `call_id` becomes `call_<output_index>`, a duplicate one gets `_2`, `_3`, ...;
 * - items announced only by `response.output_item.done` are emitted whole from it.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export class OpenAIResponsesStreamMapper {
  private readonly items = new Map<string, ItemState>();
  private readonly byOutputIndex = new Map<number, ItemState>();
  private readonly calls: OpenAIResponsesToolCalls;
  private readonly skippedNames: string[] = [];
  private skipped = 0;
  private started = false;
  private sawCreated = false;
  private responseId: string | undefined;
  private hasToolCalls = false;
  private hasRefusal = false;
  /** The part the last text delta went to (reset by every `register`): its next deltas skip the lookups. */
  private lastText: { itemId: string; contentIndex: number; blockId: string } | undefined;

  constructor(private readonly options: OpenAIResponsesStreamMapperOptions) {
    this.calls = new OpenAIResponsesToolCalls(options.declaredToolNames);
  }

  /** Maps one SSE event, pushing stream events to `out`; returns true at the terminal event. */
  handle(sse: SseEvent, out: StreamEvent[]): boolean {
    return this.handleEvent(sse.event, sse.data, out);
  }

  /** {@link handle} with the event's type and data as strings (what the SSE read loop hands over). */
  handleEvent(type: string, data: string, out: StreamEvent[]): boolean {
    if (data === '[DONE]') return false;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      this.ignoreEvent(type);
      return false;
    }
    if (typeof payload !== 'object' || payload === null) {
      this.ignoreEvent(type);
      return false;
    }
    const record = payload as Record<string, unknown>;
    switch (typeof record.type === 'string' ? record.type : type) {
      case 'response.output_text.delta':
        this.textDelta(record, false, out);
        return false;
      case 'response.refusal.delta':
        this.textDelta(record, true, out);
        return false;
      case 'response.reasoning_summary_text.delta':
        this.reasoningDelta(record, 'summary', record.summary_index, out);
        return false;
      case 'response.reasoning_text.delta':
        this.reasoningDelta(record, 'content', record.content_index, out);
        return false;
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        this.argumentsDelta(record, out);
        return false;
      case 'response.function_call_arguments.done':
        this.argumentsDone(record, record.arguments);
        return false;
      case 'response.custom_tool_call_input.done':
        this.argumentsDone(record, record.input);
        return false;
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        return this.announce(record.response, record.type === 'response.created', out);
      case 'response.output_item.added':
        this.itemAdded(record, out);
        return false;
      case 'response.output_item.done':
        this.itemDone(record, out);
        return false;
      case 'response.content_part.added':
        this.contentPartAdded(record, out);
        return false;
      case 'response.content_part.done':
        this.contentPartDone(record, out);
        return false;
      case 'response.reasoning_summary_part.added':
        openReasoningPart(this.reasoningItem(record, out), 'summary', indexOf(record.summary_index), out);
        return false;
      case 'response.completed':
      case 'response.incomplete':
        this.complete(record, out);
        return true;
      case 'response.failed': {
        const response = openaiResponsesResponseSchema.safeParse(record.response);
        const error = (response.success ? response.data.error : undefined) ?? { message: 'The response failed.' };
        out.push({ type: 'error', error: this.classify(error, 'failed response') });
        return true;
      }
      case 'error': {
        const error = openaiResponsesErrorSchema.safeParse(record);
        out.push({ type: 'error', error: this.classify(error.success ? error.data : {}, 'error event') });
        return true;
      }
      default:
        return false;
    }
  }

  /** Called when the body ends without a terminal event: reports skipped events, if any. */
  finish(out: StreamEvent[]): void {
    if (this.skipped === 0) return;
    const { providerId } = this.options;
    out.push({
      type: 'error',
      error: createLlmError({
        reason: 'unknown',
        isRetryable: true,
        providerId,
        message: `The stream from provider "${providerId}" ended without a readable completion event: ${this.skipped} event(s) were not valid JSON and were skipped (${this.skippedNames.join(', ')}).`,
      }),
    });
  }

  private ignoreEvent(name: string): void {
    this.skipped += 1;
    if (this.skippedNames.length < MAX_SKIPPED_NAMES) this.skippedNames.push(name);
  }

  private classify(
    error: Parameters<typeof classifyOpenAIResponsesStreamError>[0],
    source: 'error event' | 'failed response',
  ) {
    return classifyOpenAIResponsesStreamError(error, { providerId: this.options.providerId, source });
  }

  /**
   * `response.created` / `queued` / `in_progress`: the first starts the message; a later one with
   * another response id, or a second `response.created` after output items, is a second response
   * spliced into the stream and ends it with a {@link SplicedStreamError} (returns true).
   */
  private announce(raw: unknown, created: boolean, out: StreamEvent[]): boolean {
    if (!this.started) {
      this.sawCreated = created;
      this.start(raw, out);
      return false;
    }
    const id = readResponsesResponse(raw)?.id;
    const changed = id !== undefined && this.responseId !== undefined && id !== this.responseId;
    const again = created && (this.sawCreated || this.items.size > 0);
    this.sawCreated ||= created;
    if (!changed && !again) return false;
    out.push({
      type: 'error',
      error: new SplicedStreamError({
        providerId: this.options.providerId,
        kind: changed ? 'changed-message-id' : 'second-message-start',
        ...(this.responseId === undefined ? {} : { firstMessageId: this.responseId }),
        ...(id === undefined ? {} : { secondMessageId: id }),
      }),
    });
    return true;
  }

  private start(raw: unknown, out: StreamEvent[]): void {
    if (this.started) return;
    const response = readResponsesResponse(raw);
    this.started = true;
    const id = response?.id;
    this.responseId = id;
    const model = response?.model;
    out.push({
      type: 'message-start',
      ...(id === undefined ? {} : { id }),
      ...(model === undefined ? {} : { model }),
    });
  }

  private ensureStarted(out: StreamEvent[]): void {
    if (!this.started) this.start(undefined, out);
  }

  private lookup(record: Record<string, unknown>): ItemState | undefined {
    const byId = typeof record.item_id === 'string' ? this.items.get(record.item_id) : undefined;
    return byId ?? (typeof record.output_index === 'number' ? this.byOutputIndex.get(record.output_index) : undefined);
  }

  private register<T extends ItemState>(item: T, outputIndex: number): T {
    this.lastText = undefined;
    this.items.set(item.key, item);
    this.byOutputIndex.set(outputIndex, item);
    return item;
  }

  private keyOf(wireId: string | undefined, outputIndex: number): string {
    return wireId ?? `output_${outputIndex}`;
  }

  private messageItem(record: Record<string, unknown>): MessageItem {
    const found = this.lookup(record);
    if (found?.kind === 'message') return found;
    const wireId = typeof record.item_id === 'string' ? record.item_id : undefined;
    const outputIndex = indexOf(record.output_index);
    const key = this.keyOf(wireId, outputIndex);
    return this.register({ kind: 'message', key, wireId, phase: undefined, parts: new Map() }, outputIndex);
  }

  private reasoningItem(record: Record<string, unknown>, out: StreamEvent[]): ReasoningItem {
    this.ensureStarted(out);
    const found = this.lookup(record);
    if (found?.kind === 'reasoning') return found;
    const wireId = typeof record.item_id === 'string' ? record.item_id : undefined;
    const outputIndex = indexOf(record.output_index);
    const key = this.keyOf(wireId, outputIndex);
    return this.register({ kind: 'reasoning', key, wireId, blocks: new Map(), open: undefined }, outputIndex);
  }

  private textDelta(record: Record<string, unknown>, refusal: boolean, out: StreamEvent[]): void {
    const delta = record.delta;
    if (typeof delta !== 'string' || delta === '') return;
    const last = refusal ? undefined : this.lastText;
    if (last !== undefined && last.itemId === record.item_id && last.contentIndex === record.content_index) {
      out.push({ type: 'text-delta', blockId: last.blockId, delta });
      return;
    }
    this.ensureStarted(out);
    const item = this.messageItem(record);
    const contentIndex = indexOf(record.content_index);
    const blockId = this.textOpen(item, contentIndex, refusal, out);
    // Cached only for a part found by its item id (not the output-index fallback) at a valid index,
    // so the item id and content index alone decide the block, as the lookups above do.
    const itemId = record.item_id;
    const exact = typeof itemId === 'string' && record.content_index === contentIndex;
    if (!refusal && exact && this.items.get(itemId) === item) this.lastText = { itemId, contentIndex, blockId };
    out.push({ type: 'text-delta', blockId, delta });
  }

  private textOpen(item: MessageItem, index: number, refusal: boolean, out: StreamEvent[]): string {
    if (refusal) this.hasRefusal = true;
    return openTextPart(item, index, refusal, out);
  }

  private contentPartAdded(record: Record<string, unknown>, out: StreamEvent[]): void {
    const part = record.part as { type?: unknown } | undefined;
    const index = indexOf(record.content_index);
    if (part?.type === 'reasoning_text') {
      openReasoningPart(this.reasoningItem(record, out), 'content', index, out);
    } else if (part?.type === 'output_text' || part?.type === 'refusal') {
      this.ensureStarted(out);
      this.textOpen(this.messageItem(record), index, part.type === 'refusal', out);
    }
  }

  private contentPartDone(record: Record<string, unknown>, out: StreamEvent[]): void {
    const item = this.lookup(record);
    if (item?.kind === 'message') closeTextParts(item, out, indexOf(record.content_index));
  }

  private reasoningDelta(
    record: Record<string, unknown>,
    kind: 'summary' | 'content',
    index: unknown,
    out: StreamEvent[],
  ): void {
    const delta = record.delta;
    if (typeof delta !== 'string' || delta === '') return;
    const blockId = openReasoningPart(this.reasoningItem(record, out), kind, indexOf(index), out);
    out.push({ type: 'thinking-delta', blockId, delta });
  }

  private argumentsDelta(record: Record<string, unknown>, out: StreamEvent[]): void {
    const call = this.lookup(record);
    const delta = record.delta;
    if (call?.kind === 'call' && typeof delta === 'string' && delta !== '') this.calls.delta(call, delta, out);
  }

  private argumentsDone(record: Record<string, unknown>, text: unknown): void {
    const call = this.lookup(record);
    if (call?.kind === 'call' && typeof text === 'string') call.finalText = text;
  }

  private itemAdded(record: Record<string, unknown>, out: StreamEvent[]): void {
    const item = readResponsesOutputItem(record.item);
    if (item === undefined) return;
    const outputIndex = indexOf(record.output_index);
    const key = this.keyOf(item.id, outputIndex);
    if (this.items.has(key)) return;
    this.ensureStarted(out);
    switch (item.type) {
      case 'message':
        this.register(
          { kind: 'message', key, wireId: item.id, phase: item.phase ?? undefined, parts: new Map() },
          outputIndex,
        );
        break;
      case 'reasoning':
        this.register({ kind: 'reasoning', key, wireId: item.id, blocks: new Map(), open: undefined }, outputIndex);
        break;
      case 'function_call':
      case 'custom_tool_call':
        this.callAdded(item, key, outputIndex, out);
        break;
    }
  }

  private callAdded(item: OpenAIResponsesOutputItem, key: string, outputIndex: number, out: StreamEvent[]) {
    this.hasToolCalls = true;
    return this.register(this.calls.add(item, key, outputIndex, out), outputIndex);
  }

  private itemDone(record: Record<string, unknown>, out: StreamEvent[]): void {
    const item = readResponsesOutputItem(record.item);
    if (item === undefined) return;
    const outputIndex = indexOf(record.output_index);
    const key = this.keyOf(item.id, outputIndex);
    let state = this.items.get(key) ?? this.byOutputIndex.get(outputIndex);
    switch (item.type) {
      case 'message': {
        this.ensureStarted(out);
        if (state?.kind !== 'message') {
          state = this.register(
            { kind: 'message', key, wireId: item.id, phase: item.phase ?? undefined, parts: new Map() },
            outputIndex,
          );
        }
        const message = state;
        if (message.parts.size === 0) {
          (item.content ?? []).forEach((part, index) => {
            const refusal = part.type === 'refusal';
            const text = refusal ? part.refusal : part.text;
            if (text === undefined || text === '') return;
            const blockId = this.textOpen(message, index, refusal, out);
            out.push({ type: 'text-delta', blockId, delta: text });
          });
        }
        closeTextParts(message, out);
        break;
      }
      case 'reasoning': {
        const reasoning =
          state?.kind === 'reasoning'
            ? state
            : this.reasoningItem({ item_id: item.id, output_index: outputIndex }, out);
        finishReasoningItem(reasoning, item, out);
        break;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const call = state?.kind === 'call' ? state : this.callAdded(item, key, outputIndex, out);
        const text =
          (item.type === 'custom_tool_call' ? item.input : item.arguments) ?? call.finalText ?? call.buffer.text;
        this.calls.end(call, text, out);
        break;
      }
    }
  }

  private complete(record: Record<string, unknown>, out: StreamEvent[]): void {
    this.ensureStarted(out);
    for (const item of this.items.values()) {
      if (item.kind === 'message') closeTextParts(item, out);
      else if (item.kind === 'reasoning') closeReasoningItem(item, out);
      else if (item.kind === 'call') this.calls.end(item, item.finalText ?? item.buffer.text, out);
    }
    const response = readResponsesResponse(record.response);
    const status = response?.status ?? (record.type === 'response.completed' ? 'completed' : 'incomplete');
    out.push({
      type: 'message-end',
      finishReason: mapOpenAIResponsesFinishReason({
        status,
        incompleteReason: response?.incomplete_details?.reason,
        hasToolCalls: this.hasToolCalls,
        hasRefusal: this.hasRefusal,
      }),
      usage: mapOpenAIResponsesUsage(response?.usage),
      ...rawUsageOf(record.response),
    });
  }
}

/** `{raw}` with the response's usage object as received, or nothing when it had none. */
function rawUsageOf(response: unknown): { raw?: unknown } {
  const usage = typeof response === 'object' && response !== null ? (response as { usage?: unknown }).usage : undefined;
  return usage === undefined || usage === null ? {} : { raw: usage };
}

function indexOf(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}
