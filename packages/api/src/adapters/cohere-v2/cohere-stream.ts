import type { BatchSource } from '../../shared/batch-source.js';
import { decodeSseStream } from '../../shared/decode-sse-stream.js';
import { createToolInputBuffer, type ToolInputBuffer } from '../../shared/tool-input.js';
import { UniqueToolCallIds as ToolCallIds } from '../../shared/unique-tool-call-ids.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { SplicedStreamError } from '../../spec/stream-protocol-errors.js';
import { cohereStreamError } from './cohere-errors.js';
import { mapCohereFinishReason } from './cohere-finish-reason.js';
import { COHERE_PROTOCOL_ID } from './cohere-request.js';
import { mapCohereUsage } from './cohere-usage.js';
import {
  type CohereContentDelta,
  type CohereStreamEvent,
  type CohereUsage,
  cohereContentDeltaSchema,
  cohereStreamEventSchema,
  cohereToolCallDeltaSchema,
  isPlainContent,
  isPlainEvent,
} from './cohere-wire.js';

type OpenBlock =
  | { kind: 'text'; blockId: string }
  | { kind: 'thinking'; blockId: string }
  | { kind: 'tool'; blockId: string; toolCallId: string; toolName: string; input: ToolInputBuffer };

/** The id of the thinking block a turn's `tool_plan` is streamed into. */
export const TOOL_PLAN_BLOCK_ID = 'tool-plan';

/** `billed_units` of a message's usage, as the `cohere` provider metadata keeps it. */
export function cohereMessageMetadata(
  usage: CohereUsage | undefined,
): Record<string, Record<string, unknown>> | undefined {
  return usage?.billed_units === undefined ? undefined : { [COHERE_PROTOCOL_ID]: { billed_units: usage.billed_units } };
}

/**
 * Maps Cohere v2 chat-stream events to block-scoped stream events, one SSE `data` payload at a time
 * (events are pushed to the array given, so an event costs no generator and a network chunk's events
 * go out as one batch):
 * `content-start` / `content-delta` / `content-end` are text or thinking blocks (`content-<index>`);
 * `tool-plan-delta` pieces form one thinking block (`tool-plan`, closed when anything else begins):
 * the plan is the model's reasoning about its tool calls, not the answer, so a consumer that prints
 * text deltas does not show it; its `cohere.toolPlan` metadata marks it, so it goes back as
 * `tool_plan`; `tool-call-start` (id, name,
 * maybe a first piece of arguments) / `tool-call-delta` / `tool-call-end` are tool calls
 * (`tool-<index>`, input parsed at the end, `{}` when no argument text came); citations and debug
 * events are ignored. `message-end` gives the finish reason and usage; with an `error` text it is an
 * `error` event instead; either way the decoder is {@link CohereStreamDecoder.done} and ignores what
 * follows. A stream without `message-end` pushes none, which the retry layer reports as a cut
 * connection. An event that is not JSON (or not an event) throws a retryable `server` error.
 *
 * @see https://docs.cohere.com/reference/chat-stream
 * @see https://docs.cohere.com/v2/docs/streaming
 */
export class CohereStreamDecoder {
  private readonly open = new Map<string, OpenBlock>();
  private readonly ids = new ToolCallIds();
  private started = false;
  private finished = false;
  /** `content-<index>` strings by index, so a delta does not build its block id again. */
  private readonly contentIds: string[] = [];
  private messageId: string | undefined;

  constructor(private readonly context: { providerId: string; model: string }) {}

  /** Whether `message-end` came (the message ended or failed); later events are ignored. */
  get done(): boolean {
    return this.finished;
  }

  /** Maps one SSE `data` payload; blank data and `[DONE]` are skipped. */
  push(data: string, out: StreamEvent[]): void {
    if (this.finished || isBlank(data) || data === '[DONE]') return;
    const event = parseEvent(data, this.context.providerId);
    const open = this.open;
    switch (event.type) {
      case 'content-delta': {
        this.start(out);
        const blockId = this.contentBlockId(event.index);
        const content = contentOf(event);
        const kind = content?.thinking !== undefined ? 'thinking' : 'text';
        if (open.get(blockId)?.kind !== kind) {
          close(open, TOOL_PLAN_BLOCK_ID, out);
          close(open, blockId, out);
          open.set(blockId, contentBlock(kind, blockId));
          out.push({ type: kind === 'thinking' ? 'thinking-start' : 'text-start', blockId });
        }
        const piece = content?.thinking ?? content?.text ?? '';
        if (piece !== '') out.push(deltaEvent(kind, blockId, piece));
        break;
      }
      case 'message-start':
        if (this.started) {
          // A second message in one stream (after content or with another id) is never merged.
          this.finished = true;
          out.push({
            type: 'error',
            error: new SplicedStreamError({
              providerId: this.context.providerId,
              kind: 'second-message-start',
              ...(this.messageId === undefined ? {} : { firstMessageId: this.messageId }),
              ...(event.id === undefined || event.id === null ? {} : { secondMessageId: event.id }),
            }),
          });
          return;
        }
        this.start(out, event.id);
        break;
      case 'content-start': {
        this.start(out);
        close(open, TOOL_PLAN_BLOCK_ID, out);
        const content = contentOf(event);
        const kind = content?.type === 'thinking' ? 'thinking' : 'text';
        const blockId = this.contentBlockId(event.index);
        close(open, blockId, out);
        open.set(blockId, contentBlock(kind, blockId));
        out.push({ type: kind === 'thinking' ? 'thinking-start' : 'text-start', blockId });
        const first = kind === 'thinking' ? content?.thinking : content?.text;
        if (first !== undefined && first !== '') out.push(deltaEvent(kind, blockId, first));
        break;
      }
      case 'content-end':
        close(open, this.contentBlockId(event.index), out);
        break;
      case 'tool-plan-delta': {
        this.start(out);
        if (!open.has(TOOL_PLAN_BLOCK_ID)) {
          open.set(TOOL_PLAN_BLOCK_ID, { kind: 'thinking', blockId: TOOL_PLAN_BLOCK_ID });
          out.push({
            type: 'thinking-start',
            blockId: TOOL_PLAN_BLOCK_ID,
            providerMetadata: { [COHERE_PROTOCOL_ID]: { toolPlan: true } },
          });
        }
        const piece = event.delta?.message?.tool_plan ?? '';
        if (piece !== '') out.push({ type: 'thinking-delta', blockId: TOOL_PLAN_BLOCK_ID, delta: piece });
        break;
      }
      case 'tool-call-start': {
        this.start(out);
        close(open, TOOL_PLAN_BLOCK_ID, out);
        const index = event.index ?? 0;
        const blockId = `tool-${index}`;
        close(open, blockId, out);
        const call = toolCallOf(event);
        const block: OpenBlock = {
          kind: 'tool',
          blockId,
          toolCallId: this.ids.next(call?.id, index),
          toolName: call?.function?.name ?? '',
          input: createToolInputBuffer(),
        };
        open.set(blockId, block);
        out.push({ type: 'tool-call-start', blockId, toolCallId: block.toolCallId, toolName: block.toolName });
        appendArguments(block, call?.function?.arguments, out);
        break;
      }
      case 'tool-call-delta': {
        this.start(out);
        const index = event.index ?? 0;
        let block = open.get(`tool-${index}`);
        if (block?.kind !== 'tool') {
          block = {
            kind: 'tool',
            blockId: `tool-${index}`,
            toolCallId: this.ids.next(undefined, index),
            toolName: '',
            input: createToolInputBuffer(),
          };
          open.set(block.blockId, block);
          out.push({ type: 'tool-call-start', blockId: block.blockId, toolCallId: block.toolCallId, toolName: '' });
        }
        appendArguments(block, toolCallOf(event)?.function?.arguments, out);
        break;
      }
      case 'tool-call-end':
        close(open, `tool-${event.index ?? 0}`, out);
        break;
      case 'message-end':
        this.end(event, out);
        break;
      default:
        // citation-start / citation-end / debug and anything new: nothing to show, never a failure.
        break;
    }
  }

  private end(event: CohereStreamEvent, out: StreamEvent[]): void {
    this.start(out);
    this.finished = true;
    for (const blockId of [...this.open.keys()]) close(this.open, blockId, out);
    const delta = event.delta;
    if (delta?.error !== undefined && delta.error !== '') {
      out.push({ type: 'error', error: cohereStreamError(delta.error, this.context.providerId) });
      return;
    }
    const providerMetadata = cohereMessageMetadata(delta?.usage);
    out.push({
      type: 'message-end',
      finishReason: mapCohereFinishReason(delta?.finish_reason),
      usage: mapCohereUsage(delta?.usage),
      ...(delta?.usage === undefined || delta.usage === null ? {} : { raw: delta.usage }),
      ...(providerMetadata === undefined ? {} : { providerMetadata }),
    });
  }

  private start(out: StreamEvent[], id?: string): void {
    if (this.started) return;
    this.started = true;
    this.messageId = id;
    out.push({ type: 'message-start', model: this.context.model, ...(id === undefined ? {} : { id }) });
  }

  private contentBlockId(index: number | undefined): string {
    const at = index ?? 0;
    // Only small non-negative integers are cached; anything else is built each time.
    if (!Number.isInteger(at) || at < 0 || at > 64) return `content-${at}`;
    let id = this.contentIds[at];
    if (id === undefined) {
      id = `content-${at}`;
      this.contentIds[at] = id;
    }
    return id;
  }
}

/**
 * Reads a Cohere `text/event-stream` body with the shared SSE read loop (one batch per network chunk;
 * blank data, a comment or an event with nothing to show restarts the stall timers). A payload the
 * decoder rejects ends the stream with that error, after the events decoded before it. After
 * `message-end` the rest of the body is still read (and ignored): returning early would cancel the
 * body and undici would destroy the keep-alive socket.
 */
export function decodeCohereEventStream(body: AsyncIterable<Uint8Array>, decoder: CohereStreamDecoder): BatchSource {
  return decodeSseStream(body, { event: (_type, data, out) => decoder.push(data, out) });
}

/** Blank data (no characters, or only whitespace), skipped like a keep-alive; cheap for JSON data. */
function isBlank(data: string): boolean {
  if (data.length === 0) return true;
  const first = data.charCodeAt(0);
  // JSON starts with `{`; only data starting with whitespace can be all whitespace.
  return first <= 32 || first === 0xa0 || first === 0xfeff || first >= 0x1680 ? data.trim() === '' : false;
}

function contentOf(event: CohereStreamEvent): CohereContentDelta | undefined {
  const content = event.delta?.message?.content;
  if (isPlainContent(content)) return content;
  const parsed = cohereContentDeltaSchema.safeParse(content);
  return parsed.success ? parsed.data : undefined;
}

function toolCallOf(event: CohereStreamEvent) {
  const parsed = cohereToolCallDeltaSchema.safeParse(event.delta?.message?.tool_calls);
  return parsed.success ? parsed.data : undefined;
}

function contentBlock(kind: 'text' | 'thinking', blockId: string): OpenBlock {
  return kind === 'thinking' ? { kind: 'thinking', blockId } : { kind: 'text', blockId };
}

function deltaEvent(kind: 'text' | 'thinking', blockId: string, delta: string): StreamEvent {
  return kind === 'thinking' ? { type: 'thinking-delta', blockId, delta } : { type: 'text-delta', blockId, delta };
}

function appendArguments(block: OpenBlock, piece: string | undefined, out: StreamEvent[]): void {
  if (block.kind !== 'tool' || piece === undefined || piece === '') return;
  block.input.append(piece);
  out.push({ type: 'tool-call-input-delta', blockId: block.blockId, delta: piece });
}

function close(open: Map<string, OpenBlock>, blockId: string, out: StreamEvent[]): void {
  const block = open.get(blockId);
  if (block === undefined) return;
  open.delete(blockId);
  if (block.kind === 'text') {
    out.push({ type: 'text-end', blockId });
    return;
  }
  if (block.kind === 'thinking') {
    out.push({ type: 'thinking-end', blockId });
    return;
  }
  const parsed = block.input.parse();
  out.push({
    type: 'tool-call-end',
    blockId,
    toolCallId: block.toolCallId,
    toolName: block.toolName,
    ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
  });
}

function parseEvent(data: string, providerId: string): CohereStreamEvent {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (error) {
    throw createLlmError({
      reason: 'server',
      providerId,
      cause: error,
      message: `Provider "${providerId}" sent a stream event that is not JSON: ${data.slice(0, 200)}`,
    });
  }
  // The common shapes are checked by hand; zod (as costly as JSON.parse itself) decides the rest.
  if (isPlainEvent(json)) return json;
  const parsed = cohereStreamEventSchema.safeParse(json);
  if (!parsed.success) {
    throw createLlmError({
      reason: 'server',
      providerId,
      cause: parsed.error,
      message: `Provider "${providerId}" sent a malformed stream event: ${data.slice(0, 200)}`,
    });
  }
  return parsed.data;
}
