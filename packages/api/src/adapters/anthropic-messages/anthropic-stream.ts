import {
  checkToolInputValue,
  createToolInputBuffer,
  parseToolInput,
  type ToolInputBuffer,
  type ToolInputLimits,
  type ToolInputParseResult,
} from '../../shared/tool-input.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { JsonValue } from '../../spec/json-value.js';
import type { LlmError } from '../../spec/llm-error.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { SplicedStreamError } from '../../spec/stream-protocol-errors.js';
import { type AnthropicErrorContext, classifyAnthropicStreamError } from './anthropic-errors.js';
import { mapAnthropicStopReason } from './anthropic-finish-reason.js';
import { ANTHROPIC_METADATA_KEY, type AnthropicServerBlock } from './anthropic-messages.js';
import { mapAnthropicUsage, mergeAnthropicUsage } from './anthropic-usage.js';
import {
  type AnthropicUsage,
  contentBlockStartEventSchema,
  contentBlockStopEventSchema,
  isPlainMessageDeltaEvent,
  isPlainMessageStartEvent,
  messageDeltaEventSchema,
  messageStartEventSchema,
  readContentBlockDelta,
  streamErrorEventSchema,
} from './anthropic-wire.js';

/** Options of {@link AnthropicStreamDecoder}. */
export interface AnthropicStreamDecoderOptions {
  /** For in-stream error events (provider id, URL, secrets to mask). */
  errorContext: AnthropicErrorContext;
  /** Bounds on tool-call arguments. */
  toolInputLimits?: ToolInputLimits;
}

type OpenBlock =
  | { kind: 'text'; blockId: string }
  | { kind: 'thinking'; blockId: string }
  | { kind: 'redacted' }
  | { kind: 'tool'; blockId: string; id: string; name: string; buffer: ToolInputBuffer; startInput: unknown }
  | { kind: 'server'; block: AnthropicServerBlock['block']; buffer: ToolInputBuffer; position: number };

/**
 * Turns Messages API stream events (`message_start`, `content_block_start/delta/stop`,
 * `message_delta`, `message_stop`, `ping`, `error`) into block-scoped stream events, in one pass and
 * without holding the text. The non-streamed path feeds it the events of a whole message, so both
 * paths assemble the same message.
 *
 * - A block's id is its wire `index`, made unique in the message (`<index>_2`, ... when a server
 *   reuses an index for a new block). Text, thinking (with `signature_delta` pieces), redacted
 *   thinking (complete at its start) and tool calls become their stream events; text a block
 *   carries at its start (some compatible servers send it there) is emitted as its first delta.
 * - A tool call's arguments are the `input_json_delta` pieces, parsed once at `content_block_stop`
 *   (bad JSON gives `inputError`, never a throw); with no pieces, the `input` of its start event.
 * - Tool-call ids: a missing id becomes `call_<index>`; an id already used in this message gets
 *   `_2`, `_3`... appended, so every call of a message has its own id.
 * - Other block types (`server_tool_use`, `web_search_tool_result`, `bash_code_execution_tool_result`,
 *   ...) emit nothing: they are assembled (their `input_json_delta` pieces parsed into `input`) and
 *   kept on the message as `providerMetadata.anthropic.serverBlocks` with their position, so a
 *   later turn (e.g. continuing after `pause_turn`) sends them back in place.
 * - `message_delta` usage is cumulative: the last value of each field wins. `stop_details`
 *   (refusals), `stop_sequence` and `container` are kept on the message metadata.
 * - A second `message_start` after content (or with another id) is a second message spliced into the
 *   stream: the stream ends with a {@link SplicedStreamError}, never a merge. A repeated
 *   `message_start` with the same id before any content is ignored.
 * - `ping` and unknown event or delta types yield nothing; an `error` event becomes a terminal
 *   `error` event classified like an HTTP error of its type; a `data:` line that is not JSON is a
 *   terminal `server` error (before any content the attempt is retried).
 *
 * @see https://docs.claude.com/en/docs/build-with-claude/streaming
 */
export class AnthropicStreamDecoder {
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly toolCallIds = new Set<string>();
  private readonly blockIds = new Set<string>();
  private messageStarted = false;
  private messageId: string | undefined;
  private rawUsage: Record<string, unknown> | undefined;
  private readonly serverBlocks: AnthropicServerBlock[] = [];
  private contentBlocks = 0;
  private started = false;
  private finished = false;
  private usage: AnthropicUsage | undefined;
  private stopReason: string | undefined;
  private messageDetails: Record<string, unknown> = {};

  constructor(private readonly options: AnthropicStreamDecoderOptions) {}

  /** Whether a terminal event (`message-end` or `error`) has been produced. */
  get done(): boolean {
    return this.finished;
  }

  /** Handles the `data:` text of one server-sent event. */
  handleData(data: string, out: StreamEvent[]): void {
    if (this.finished) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      this.fail(
        createLlmError({
          reason: 'server',
          providerId: this.options.errorContext.providerId,
          message: `Provider "${this.options.errorContext.providerId}" sent a stream event that is not valid JSON: ${data.slice(0, 200)}`,
        }),
        out,
      );
      return;
    }
    this.handle(payload, out);
  }

  /** Handles one parsed stream event and appends the resulting stream events to `out`. */
  handle(payload: unknown, out: StreamEvent[]): void {
    if (this.finished || typeof payload !== 'object' || payload === null) return;
    const event = payload as Record<string, unknown>;
    switch (event.type) {
      case 'content_block_delta':
        this.onDelta(event, out);
        return;
      case 'ping':
        return;
      case 'message_start':
        this.onMessageStart(event, out);
        return;
      case 'content_block_start':
        this.onBlockStart(event, out);
        return;
      case 'content_block_stop': {
        const stop = contentBlockStopEventSchema.safeParse(event);
        if (stop.success) this.closeBlock(stop.data.index, out);
        return;
      }
      case 'message_delta':
        this.onMessageDelta(event, out);
        return;
      case 'message_stop':
        this.onMessageStop(out);
        return;
      case 'error': {
        const parsed = streamErrorEventSchema.safeParse(event);
        const error = parsed.success ? parsed.data : { error: {} };
        this.fail(classifyAnthropicStreamError(error, this.options.errorContext), out);
        return;
      }
      default:
        return;
    }
  }

  private start(out: StreamEvent[], id?: string | null, model?: string | null): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'message-start', ...(id ? { id } : {}), ...(model ? { model } : {}) });
  }

  private onMessageStart(event: Record<string, unknown>, out: StreamEvent[]): void {
    const parsed = isPlainMessageStartEvent(event) ? event : parseOrUndefined(messageStartEventSchema, event);
    if (parsed === undefined) return;
    const { message } = parsed;
    const id = message.id ?? undefined;
    const contentSeen = this.contentBlocks > 0 || this.blocks.size > 0 || this.blockIds.size > 0;
    if (this.messageStarted || contentSeen) {
      if (!contentSeen && id === this.messageId) return;
      this.fail(
        new SplicedStreamError({
          providerId: this.options.errorContext.providerId,
          kind: 'second-message-start',
          ...(this.messageId === undefined ? {} : { firstMessageId: this.messageId }),
          ...(id === undefined ? {} : { secondMessageId: id }),
        }),
        out,
      );
      return;
    }
    this.messageStarted = true;
    this.messageId = id;
    this.start(out, message.id, message.model);
    if (message.usage !== null && message.usage !== undefined) {
      this.usage = mergeAnthropicUsage(this.usage, message.usage);
      this.mergeRawUsage((event.message as Record<string, unknown> | undefined)?.usage);
      out.push({ type: 'usage', usage: mapAnthropicUsage(this.usage), raw: this.rawUsage });
    }
  }

  private onBlockStart(event: Record<string, unknown>, out: StreamEvent[]): void {
    const parsed = contentBlockStartEventSchema.safeParse(event);
    if (!parsed.success) return;
    this.start(out);
    const { index, content_block: block } = parsed.data;
    if (this.blocks.has(index)) this.closeBlock(index, out);
    const blockId = this.uniqueBlockId(index);
    switch (block.type) {
      case 'text': {
        this.openBlock(index, { kind: 'text', blockId });
        out.push({ type: 'text-start', blockId });
        if (typeof block.text === 'string' && block.text !== '')
          out.push({ type: 'text-delta', blockId, delta: block.text });
        return;
      }
      case 'thinking': {
        this.openBlock(index, { kind: 'thinking', blockId });
        out.push({ type: 'thinking-start', blockId });
        if (typeof block.thinking === 'string' && block.thinking !== '') {
          out.push({ type: 'thinking-delta', blockId, delta: block.thinking });
        }
        if (typeof block.signature === 'string' && block.signature !== '') {
          out.push({ type: 'thinking-signature-delta', blockId, delta: block.signature });
        }
        return;
      }
      case 'redacted_thinking': {
        this.openBlock(index, { kind: 'redacted' });
        out.push({ type: 'redacted-thinking', blockId, data: typeof block.data === 'string' ? block.data : '' });
        return;
      }
      case 'tool_use': {
        const id = this.uniqueToolCallId(block.id, index);
        const name = typeof block.name === 'string' ? block.name : '';
        const buffer = createToolInputBuffer(this.options.toolInputLimits);
        this.openBlock(index, { kind: 'tool', blockId, id, name, buffer, startInput: block.input });
        out.push({ type: 'tool-call-start', blockId, toolCallId: id, toolName: name });
        return;
      }
      default: {
        const buffer = createToolInputBuffer(this.options.toolInputLimits);
        this.blocks.set(index, { kind: 'server', block: { ...block }, buffer, position: this.contentBlocks });
        return;
      }
    }
  }

  private openBlock(index: number, block: OpenBlock): void {
    this.blocks.set(index, block);
    this.contentBlocks += 1;
  }

  private onDelta(event: Record<string, unknown>, out: StreamEvent[]): void {
    // Fast path for nearly every event of a stream, a text or thinking piece of an open block: no
    // intermediate objects. Anything else (or an odd field type) takes the general path below.
    const wireIndex = event.index;
    const fields = event.delta;
    if (typeof wireIndex === 'number' && typeof fields === 'object' && fields !== null) {
      const open = this.blocks.get(wireIndex);
      const piece = fields as Record<string, unknown>;
      if (open?.kind === 'text' && piece.type === 'text_delta' && typeof piece.text === 'string') {
        if (piece.text !== '') out.push({ type: 'text-delta', blockId: open.blockId, delta: piece.text });
        return;
      }
      if (open?.kind === 'thinking' && piece.type === 'thinking_delta' && typeof piece.thinking === 'string') {
        if (piece.thinking !== '') out.push({ type: 'thinking-delta', blockId: open.blockId, delta: piece.thinking });
        return;
      }
    }
    const read = readContentBlockDelta(event);
    if (read === undefined) return;
    const { index, delta } = read;
    let block = this.blocks.get(index);
    if (block === undefined) {
      // A delta without its block start: open the block it implies (text or thinking) rather than lose it.
      if (delta.type !== 'text_delta' && delta.type !== 'thinking_delta') return;
      this.onBlockStart(
        {
          type: 'content_block_start',
          index,
          content_block: { type: delta.type === 'text_delta' ? 'text' : 'thinking' },
        },
        out,
      );
      block = this.blocks.get(index);
    }
    switch (block?.kind) {
      case 'text':
        if (delta.type === 'text_delta' && delta.text)
          out.push({ type: 'text-delta', blockId: block.blockId, delta: delta.text });
        return;
      case 'thinking':
        if (delta.type === 'thinking_delta' && delta.thinking) {
          out.push({ type: 'thinking-delta', blockId: block.blockId, delta: delta.thinking });
        } else if (delta.type === 'signature_delta' && delta.signature) {
          out.push({ type: 'thinking-signature-delta', blockId: block.blockId, delta: delta.signature });
        }
        return;
      case 'tool':
        if (delta.type === 'input_json_delta' && delta.partial_json) {
          block.buffer.append(delta.partial_json);
          out.push({ type: 'tool-call-input-delta', blockId: block.blockId, delta: delta.partial_json });
        }
        return;
      case 'server':
        if (delta.type === 'input_json_delta' && delta.partial_json) block.buffer.append(delta.partial_json);
        return;
      default:
        return;
    }
  }

  private closeBlock(index: number, out: StreamEvent[]): void {
    const block = this.blocks.get(index);
    if (block === undefined) return;
    this.blocks.delete(index);
    switch (block.kind) {
      case 'text':
        out.push({ type: 'text-end', blockId: block.blockId });
        return;
      case 'thinking':
        out.push({ type: 'thinking-end', blockId: block.blockId });
        return;
      case 'redacted':
        return;
      case 'tool': {
        const parsed = this.toolInput(block.buffer, block.startInput);
        out.push({
          type: 'tool-call-end',
          blockId: block.blockId,
          toolCallId: block.id,
          toolName: block.name,
          input: parsed.ok ? parsed.input : {},
          ...(parsed.ok ? {} : { inputError: parsed.error }),
        });
        return;
      }
      case 'server': {
        if (block.buffer.text !== '') {
          const parsed = block.buffer.parse();
          if (parsed.ok) block.block.input = parsed.input;
        }
        this.serverBlocks.push({ position: block.position, block: block.block });
        return;
      }
    }
  }

  /** Arguments from the deltas, else from the start event's `input` (text from a broken server is parsed). */
  private toolInput(buffer: ToolInputBuffer, startInput: unknown): ToolInputParseResult {
    if (buffer.text !== '' || startInput === undefined || startInput === null) return buffer.parse();
    if (typeof startInput === 'string') return parseToolInput(startInput, this.options.toolInputLimits);
    return checkToolInputValue(startInput, this.options.toolInputLimits);
  }

  private onMessageDelta(event: Record<string, unknown>, out: StreamEvent[]): void {
    const parsed = isPlainMessageDeltaEvent(event) ? event : parseOrUndefined(messageDeltaEventSchema, event);
    if (parsed === undefined) return;
    this.start(out);
    const { delta, usage } = parsed;
    if (delta.stop_reason) this.stopReason = delta.stop_reason;
    if (delta.stop_sequence) this.messageDetails.stopSequence = delta.stop_sequence;
    if (delta.stop_details) this.messageDetails.stopDetails = delta.stop_details;
    if (delta.container) this.messageDetails.container = delta.container;
    if (usage !== null && usage !== undefined) {
      this.usage = mergeAnthropicUsage(this.usage, usage);
      this.mergeRawUsage(event.usage);
      out.push({ type: 'usage', usage: mapAnthropicUsage(this.usage), raw: this.rawUsage });
    }
  }

  private onMessageStop(out: StreamEvent[]): void {
    this.start(out);
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) this.closeBlock(index, out);
    const details: Record<string, unknown> = { ...this.messageDetails };
    if (this.serverBlocks.length > 0) details.serverBlocks = this.serverBlocks as unknown as JsonValue;
    const metadata: ProviderMetadata | undefined =
      Object.keys(details).length === 0 ? undefined : { [ANTHROPIC_METADATA_KEY]: details };
    this.finished = true;
    out.push({
      type: 'message-end',
      finishReason: mapAnthropicStopReason(this.stopReason),
      usage: mapAnthropicUsage(this.usage),
      ...(this.rawUsage === undefined ? {} : { raw: this.rawUsage }),
      ...(metadata === undefined ? {} : { providerMetadata: metadata }),
    });
  }

  /** The usage objects as received, merged (`message_delta` counts are cumulative: later fields win). */
  private mergeRawUsage(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null) return;
    this.rawUsage = { ...this.rawUsage, ...(raw as Record<string, unknown>) };
  }

  private fail(error: LlmError, out: StreamEvent[]): void {
    this.finished = true;
    out.push({ type: 'error', error });
  }

  /** The wire index as a block id, suffixed when this message already used it (ids never repeat). */
  private uniqueBlockId(index: number): string {
    let id = String(index);
    for (let suffix = 2; this.blockIds.has(id); suffix += 1) id = `${index}_${suffix}`;
    this.blockIds.add(id);
    return id;
  }

  /** The id to use for a tool call: the vendor's, or `call_<index>` when missing, made unique in the message. */
  private uniqueToolCallId(raw: unknown, index: number): string {
    const base = typeof raw === 'string' && raw !== '' ? raw : `call_${index}`;
    let id = base;
    for (let suffix = 2; this.toolCallIds.has(id); suffix += 1) id = `${base}_${suffix}`;
    this.toolCallIds.add(id);
    return id;
  }
}

/** The schema's output, or undefined when the value does not fit it. */
function parseOrUndefined<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  value: unknown,
): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
