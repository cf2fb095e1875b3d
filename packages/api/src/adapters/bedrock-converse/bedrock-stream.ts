import type { z } from 'zod';
import { createToolInputBuffer, type ToolInputBuffer } from '../../shared/tool-input.js';
import { UniqueToolCallIds as ToolCallIds } from '../../shared/unique-tool-call-ids.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import type { FinishReason, Usage } from '../../spec/usage.js';
import { bedrockStreamError } from './bedrock-errors.js';
import type { EventStreamMessage } from './bedrock-event-stream.js';
import { mapBedrockStopReason } from './bedrock-finish-reason.js';
import { BEDROCK_PROTOCOL_ID } from './bedrock-request.js';
import { type ContentBlockDeltaEvent, fastDelta, isMessageStop } from './bedrock-stream-fast-paths.js';
import { mapBedrockUsage } from './bedrock-usage.js';
import {
  bedrockExceptionSchema,
  contentBlockDeltaEventSchema,
  contentBlockStartEventSchema,
  contentBlockStopEventSchema,
  messageStopEventSchema,
  metadataEventSchema,
} from './bedrock-wire.js';

type OpenBlock =
  | { kind: 'text'; blockId: string }
  | { kind: 'thinking'; blockId: string }
  | { kind: 'redacted'; blockId: string; parts: string[] }
  | { kind: 'tool'; blockId: string; toolCallId: string; toolName: string; input: ToolInputBuffer };

/** Context of one ConverseStream response. */
export interface BedrockStreamContext {
  providerId: string;
  /** The model id requested (ConverseStream does not echo it). */
  model: string;
  /** `x-amzn-RequestId` of the response, used as the message id. */
  requestId?: string | undefined;
}

/** Maps decoded ConverseStream messages to stream events; see {@link createBedrockStreamMapper}. */
export interface BedrockStreamMapper {
  /**
   * Appends the events of one message (its headers and its payload as text) to `out`. Throws a
   * `server` error for a malformed payload.
   */
  push(headers: Readonly<Record<string, string>>, payload: string, out: StreamEvent[]): void;
  /** The body ended: appends `message-end` when `messageStop` came but `metadata` did not. */
  end(out: StreamEvent[]): void;
  /** True once the terminal event (`message-end` or `error`) is out; later messages are ignored. */
  readonly finished: boolean;
}

/**
 * Maps decoded ConverseStream messages to block-scoped stream events, synchronously, so a caller
 * turns one network chunk into one array of events. Text, reasoning (text and signature deltas) and
 * tool use (a `contentBlockStart`, then input JSON pieces) open blocks keyed by `contentBlockIndex`;
 * `contentBlockStop` closes them (a redacted-reasoning block is emitted whole there, with the base64
 * `redactedContent` as its data; a tool call with no input delta at all has input `{}`).
 * `messageStop` gives the finish reason and `metadata` the usage, in either order; `message-end`
 * follows once both have come, or when the body ends after `messageStop`. A body that ends without
 * `messageStop` yields no `message-end`, which the retry layer reports as a cut connection. An
 * exception frame becomes one `error` event, classified like HTTP errors.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export function createBedrockStreamMapper(context: BedrockStreamContext): BedrockStreamMapper {
  const open = new Map<number, OpenBlock>();
  const ids = new ToolCallIds();
  const blockIds = new Set<string>();
  let started = false;
  let finished = false;
  let finish: FinishReason | undefined;
  let usage: Usage | undefined;
  let sawMetadata = false;
  let metadata: Record<string, unknown> = {};
  const { providerId } = context;

  const start = (out: StreamEvent[]): void => {
    if (started) return;
    started = true;
    out.push({
      type: 'message-start',
      model: context.model,
      ...(context.requestId === undefined ? {} : { id: context.requestId }),
    });
  };
  const newBlockId = (index: number): string => {
    let blockId = String(index);
    for (let copy = 2; blockIds.has(blockId); copy += 1) blockId = `${index}.${copy}`;
    blockIds.add(blockId);
    return blockId;
  };
  let rawUsage: unknown;
  const messageEnd = (out: StreamEvent[], reason: FinishReason): void => {
    finished = true;
    const providerMetadata: ProviderMetadata | undefined =
      Object.keys(metadata).length === 0 ? undefined : { [BEDROCK_PROTOCOL_ID]: metadata };
    out.push({
      type: 'message-end',
      finishReason: reason,
      usage: usage ?? mapBedrockUsage(undefined),
      ...(rawUsage === undefined ? {} : { raw: rawUsage }),
      ...(providerMetadata === undefined ? {} : { providerMetadata }),
    });
  };

  const exception = (headers: Readonly<Record<string, string>>, text: string, out: StreamEvent[]): void => {
    finished = true;
    const type = headers[':exception-type'] ?? headers[':error-code'] ?? 'internalServerException';
    const payload = parseJson(text, type, providerId);
    const parsed = bedrockExceptionSchema.safeParse(payload);
    const fields = parsed.success ? parsed.data : {};
    const message = fields.message ?? fields.Message ?? headers[':error-message'];
    out.push({
      type: 'error',
      error: bedrockStreamError(type, { ...fields, ...(message === undefined ? {} : { message }) }, providerId),
    });
  };

  const delta = (event: ContentBlockDeltaEvent, out: StreamEvent[]): void => {
    const index = event.contentBlockIndex;
    const change = event.delta;
    start(out);
    // The open block is looked up first so the common case (the same block again) creates no closure.
    const current = open.get(index);
    if (change.text !== undefined) {
      const block =
        current?.kind === 'text'
          ? current
          : ensure(open, index, 'text', out, () => ({ kind: 'text', blockId: newBlockId(index) }));
      if (change.text !== '') out.push({ type: 'text-delta', blockId: block.blockId, delta: change.text });
    } else if (change.toolUse !== undefined) {
      const block = ensure(open, index, 'tool', out, () => ({
        kind: 'tool',
        blockId: newBlockId(index),
        toolCallId: ids.next(undefined, index),
        toolName: '',
        input: createToolInputBuffer(),
      }));
      const piece = change.toolUse.input ?? '';
      if (block.kind === 'tool' && piece !== '') {
        block.input.append(piece);
        out.push({ type: 'tool-call-input-delta', blockId: block.blockId, delta: piece });
      }
    } else if (change.reasoningContent?.redactedContent !== undefined) {
      const block = ensure(open, index, 'redacted', out, () => ({
        kind: 'redacted',
        blockId: newBlockId(index),
        parts: [],
      }));
      if (block.kind === 'redacted') block.parts.push(change.reasoningContent.redactedContent);
    } else if (change.reasoningContent !== undefined) {
      const block =
        current?.kind === 'thinking'
          ? current
          : ensure(open, index, 'thinking', out, () => ({ kind: 'thinking', blockId: newBlockId(index) }));
      const { text, signature } = change.reasoningContent;
      if (text !== undefined && text !== '') out.push({ type: 'thinking-delta', blockId: block.blockId, delta: text });
      if (signature !== undefined && signature !== '') {
        out.push({ type: 'thinking-signature-delta', blockId: block.blockId, delta: signature });
      }
    }
  };

  return {
    get finished() {
      return finished;
    },

    push(headers, text, out) {
      if (finished) return;
      const messageType = headers[':message-type'] ?? 'event';
      if (messageType !== 'event') {
        exception(headers, text, out);
        return;
      }
      const eventType = headers[':event-type'] ?? '';
      const payload = parseJson(text, eventType, providerId);
      switch (eventType) {
        case 'contentBlockDelta':
          // The hot path: one text (or reasoning) delta per token, checked without zod.
          delta(fastDelta(payload) ?? parse(contentBlockDeltaEventSchema, payload, eventType, providerId), out);
          break;
        case 'messageStart':
          start(out);
          break;
        case 'contentBlockStart': {
          const event = parse(contentBlockStartEventSchema, payload, eventType, providerId);
          const toolUse = event.start?.toolUse;
          if (toolUse === undefined) break;
          start(out);
          close(open, event.contentBlockIndex, out);
          const block: OpenBlock = {
            kind: 'tool',
            blockId: newBlockId(event.contentBlockIndex),
            toolCallId: ids.next(toolUse.toolUseId, event.contentBlockIndex),
            toolName: toolUse.name ?? '',
            input: createToolInputBuffer(),
          };
          open.set(event.contentBlockIndex, block);
          out.push({
            type: 'tool-call-start',
            blockId: block.blockId,
            toolCallId: block.toolCallId,
            toolName: block.toolName,
          });
          break;
        }
        case 'contentBlockStop': {
          const index = (payload as { contentBlockIndex?: unknown } | null)?.contentBlockIndex;
          close(
            open,
            typeof index === 'number'
              ? index
              : parse(contentBlockStopEventSchema, payload, eventType, providerId).contentBlockIndex,
            out,
          );
          break;
        }
        case 'messageStop': {
          const event = isMessageStop(payload)
            ? payload
            : parse(messageStopEventSchema, payload, eventType, providerId);
          start(out);
          for (const index of [...open.keys()]) close(open, index, out);
          finish = mapBedrockStopReason(event.stopReason);
          if (event.additionalModelResponseFields !== undefined) {
            metadata = { ...metadata, additionalModelResponseFields: event.additionalModelResponseFields };
          }
          break;
        }
        case 'metadata': {
          const event = parse(metadataEventSchema, payload, eventType, providerId);
          start(out);
          sawMetadata = true;
          if (event.usage !== undefined) {
            usage = mapBedrockUsage(event.usage);
            // As received: the payload before the schema dropped fields it does not know.
            rawUsage = (payload as { usage?: unknown } | null)?.usage ?? event.usage;
            out.push({ type: 'usage', usage, raw: rawUsage });
          }
          if (event.metrics !== undefined) metadata = { ...metadata, metrics: event.metrics };
          if (event.trace !== undefined) metadata = { ...metadata, trace: event.trace };
          break;
        }
        default:
          // A new event type: nothing to show, and never a reason to fail.
          break;
      }
      if (finish !== undefined && sawMetadata) messageEnd(out, finish);
    },

    end(out) {
      if (!finished && finish !== undefined) messageEnd(out, finish);
    },
  };
}

/** One decoder for every payload: `TextDecoder` keeps no state between non-streaming calls. */
const utf8 = new TextDecoder();

/**
 * {@link createBedrockStreamMapper} over an async iterable of messages, one event at a time (for
 * callers and tests that hold messages rather than network chunks; the adapter maps chunks).
 */
export async function* mapBedrockStream(
  messages: AsyncIterable<EventStreamMessage>,
  context: BedrockStreamContext,
): AsyncGenerator<StreamEvent, void, undefined> {
  const mapper = createBedrockStreamMapper(context);
  const out: StreamEvent[] = [];
  for await (const message of messages) {
    mapper.push(message.headers, utf8.decode(message.payload), out);
    for (const event of out.splice(0)) yield event;
    if (mapper.finished) return;
  }
  mapper.end(out);
  yield* out;
}

/** The open block at `index` if it is of `kind`; otherwise closes what is there and opens a new one. */
function ensure(
  open: Map<number, OpenBlock>,
  index: number,
  kind: OpenBlock['kind'],
  out: StreamEvent[],
  create: () => OpenBlock,
): OpenBlock {
  const existing = open.get(index);
  if (existing?.kind === kind) return existing;
  close(open, index, out);
  const block = create();
  open.set(index, block);
  switch (block.kind) {
    case 'text':
      out.push({ type: 'text-start', blockId: block.blockId });
      break;
    case 'thinking':
      out.push({ type: 'thinking-start', blockId: block.blockId });
      break;
    case 'tool':
      out.push({
        type: 'tool-call-start',
        blockId: block.blockId,
        toolCallId: block.toolCallId,
        toolName: block.toolName,
      });
      break;
    case 'redacted':
      break;
  }
  return block;
}

function close(open: Map<number, OpenBlock>, index: number, out: StreamEvent[]): void {
  const block = open.get(index);
  if (block === undefined) return;
  open.delete(index);
  switch (block.kind) {
    case 'text':
      out.push({ type: 'text-end', blockId: block.blockId });
      break;
    case 'thinking':
      out.push({ type: 'thinking-end', blockId: block.blockId });
      break;
    case 'redacted':
      out.push({ type: 'redacted-thinking', blockId: block.blockId, data: block.parts.join('') });
      break;
    case 'tool': {
      const parsed = block.input.parse();
      out.push({
        type: 'tool-call-end',
        blockId: block.blockId,
        toolCallId: block.toolCallId,
        toolName: block.toolName,
        ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
      });
      break;
    }
  }
}

function parseJson(text: string, eventType: string, providerId: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    // A blank payload means no fields; checked only here, so the common case copies nothing.
    if (text.trim() === '') return {};
    throw createLlmError({
      reason: 'server',
      providerId,
      cause: error,
      message: `Provider "${providerId}" sent a ${eventType || 'stream'} event whose payload is not JSON: ${text.slice(0, 200)}`,
    });
  }
}

function parse<T>(schema: z.ZodType<T>, payload: unknown, eventType: string, providerId: string): T {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  throw createLlmError({
    reason: 'server',
    providerId,
    cause: result.error,
    message: `Provider "${providerId}" sent a malformed ${eventType} event: ${JSON.stringify(payload).slice(0, 200)}`,
  });
}
