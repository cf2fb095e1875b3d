import type { z } from 'zod';
import { createToolInputBuffer, type ToolInputBuffer } from '../../shared/tool-input.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import type { FinishReason, Usage } from '../../spec/usage.js';
import { bedrockStreamError } from './bedrock-errors.js';
import type { EventStreamMessage } from './bedrock-event-stream.js';
import {
  bedrockExceptionSchema,
  contentBlockDeltaEventSchema,
  contentBlockStartEventSchema,
  contentBlockStopEventSchema,
  messageStopEventSchema,
  metadataEventSchema,
} from './bedrock-wire-types.js';
import { BEDROCK_PROTOCOL_ID } from './build-bedrock-request.js';
import { mapBedrockStopReason } from './map-bedrock-stop-reason.js';
import { mapBedrockUsage } from './map-bedrock-usage.js';

/**
 * Tool-call ids within one message: a missing id becomes `call_<blockIndex>` and a repeated one gets
 * `_2`, `_3`… appended, so every call of a message has its own id (a broken server can send the same
 * id twice or none at all) and the same input always gets the same ids.
 */
export class ToolCallIds {
  private readonly used = new Set<string>();

  /** A unique id for the call at `blockIndex`, keeping the vendor's id when it is usable. */
  next(vendorId: string | undefined, blockIndex: number): string {
    const base = vendorId === undefined || vendorId.trim() === '' ? `call_${blockIndex}` : vendorId;
    let id = base;
    for (let copy = 2; this.used.has(id); copy += 1) id = `${base}_${copy}`;
    this.used.add(id);
    return id;
  }
}

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

/**
 * Maps decoded ConverseStream messages to block-scoped stream events. Text, reasoning (text and
 * signature deltas) and tool use (a `contentBlockStart`, then input JSON pieces) open blocks keyed
 * by `contentBlockIndex`; `contentBlockStop` closes them (a redacted-reasoning block is emitted
 * whole there, with the base64 `redactedContent` as its data; a tool call with no input delta at all
 * has input `{}`). `messageStop` gives the finish reason and `metadata` the usage, in either order;
 * `message-end` follows once both have come, or when the body ends after `messageStop`. A body that
 * ends without `messageStop` yields no `message-end`, which the retry layer reports as a cut
 * connection. An exception frame becomes one `error` event, classified like HTTP errors.
 *
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
 */
export async function* mapBedrockStream(
  messages: AsyncIterable<EventStreamMessage>,
  context: BedrockStreamContext,
): AsyncGenerator<StreamEvent, void, undefined> {
  const open = new Map<number, OpenBlock>();
  const ids = new ToolCallIds();
  const blockIds = new Set<string>();
  let started = false;
  let finish: FinishReason | undefined;
  let usage: Usage | undefined;
  let sawMetadata = false;
  let metadata: Record<string, unknown> = {};

  const start = (): StreamEvent[] => {
    if (started) return [];
    started = true;
    return [
      {
        type: 'message-start',
        model: context.model,
        ...(context.requestId === undefined ? {} : { id: context.requestId }),
      },
    ];
  };
  const newBlockId = (index: number): string => {
    let blockId = String(index);
    for (let copy = 2; blockIds.has(blockId); copy += 1) blockId = `${index}.${copy}`;
    blockIds.add(blockId);
    return blockId;
  };

  for await (const message of messages) {
    const messageType = message.headers[':message-type'] ?? 'event';
    if (messageType !== 'event') {
      const type = message.headers[':exception-type'] ?? message.headers[':error-code'] ?? 'internalServerException';
      const payload = parseJson(message.payload, type, context.providerId);
      const parsed = bedrockExceptionSchema.safeParse(payload);
      const fields = parsed.success ? parsed.data : {};
      const text = fields.message ?? fields.Message ?? message.headers[':error-message'];
      yield {
        type: 'error',
        error: bedrockStreamError(
          type,
          { ...fields, ...(text === undefined ? {} : { message: text }) },
          context.providerId,
        ),
      };
      return;
    }
    const eventType = message.headers[':event-type'] ?? '';
    const payload = parseJson(message.payload, eventType, context.providerId);
    switch (eventType) {
      case 'messageStart':
        yield* start();
        break;
      case 'contentBlockStart': {
        const event = parse(contentBlockStartEventSchema, payload, eventType, context.providerId);
        const toolUse = event.start?.toolUse;
        if (toolUse === undefined) break;
        yield* start();
        yield* close(open, event.contentBlockIndex);
        const block: OpenBlock = {
          kind: 'tool',
          blockId: newBlockId(event.contentBlockIndex),
          toolCallId: ids.next(toolUse.toolUseId, event.contentBlockIndex),
          toolName: toolUse.name ?? '',
          input: createToolInputBuffer(),
        };
        open.set(event.contentBlockIndex, block);
        yield {
          type: 'tool-call-start',
          blockId: block.blockId,
          toolCallId: block.toolCallId,
          toolName: block.toolName,
        };
        break;
      }
      case 'contentBlockDelta': {
        const event = parse(contentBlockDeltaEventSchema, payload, eventType, context.providerId);
        const index = event.contentBlockIndex;
        const delta = event.delta;
        yield* start();
        if (delta.text !== undefined) {
          const block = yield* ensure(open, index, 'text', () => ({ kind: 'text', blockId: newBlockId(index) }));
          if (delta.text !== '') yield { type: 'text-delta', blockId: block.blockId, delta: delta.text };
        } else if (delta.toolUse !== undefined) {
          const block = yield* ensure(open, index, 'tool', () => {
            const toolCallId = ids.next(undefined, index);
            return {
              kind: 'tool',
              blockId: newBlockId(index),
              toolCallId,
              toolName: '',
              input: createToolInputBuffer(),
            };
          });
          const piece = delta.toolUse.input ?? '';
          if (block.kind === 'tool' && piece !== '') {
            block.input.append(piece);
            yield { type: 'tool-call-input-delta', blockId: block.blockId, delta: piece };
          }
        } else if (delta.reasoningContent?.redactedContent !== undefined) {
          const block = yield* ensure(open, index, 'redacted', () => ({
            kind: 'redacted',
            blockId: newBlockId(index),
            parts: [],
          }));
          if (block.kind === 'redacted') block.parts.push(delta.reasoningContent.redactedContent);
        } else if (delta.reasoningContent !== undefined) {
          const block = yield* ensure(open, index, 'thinking', () => ({
            kind: 'thinking',
            blockId: newBlockId(index),
          }));
          const { text, signature } = delta.reasoningContent;
          if (text !== undefined && text !== '') yield { type: 'thinking-delta', blockId: block.blockId, delta: text };
          if (signature !== undefined && signature !== '') {
            yield { type: 'thinking-signature-delta', blockId: block.blockId, delta: signature };
          }
        }
        break;
      }
      case 'contentBlockStop': {
        const event = parse(contentBlockStopEventSchema, payload, eventType, context.providerId);
        yield* close(open, event.contentBlockIndex);
        break;
      }
      case 'messageStop': {
        const event = parse(messageStopEventSchema, payload, eventType, context.providerId);
        yield* start();
        for (const index of [...open.keys()]) yield* close(open, index);
        finish = mapBedrockStopReason(event.stopReason);
        if (event.additionalModelResponseFields !== undefined) {
          metadata = { ...metadata, additionalModelResponseFields: event.additionalModelResponseFields };
        }
        break;
      }
      case 'metadata': {
        const event = parse(metadataEventSchema, payload, eventType, context.providerId);
        yield* start();
        sawMetadata = true;
        if (event.usage !== undefined) {
          usage = mapBedrockUsage(event.usage);
          yield { type: 'usage', usage };
        }
        if (event.metrics !== undefined) metadata = { ...metadata, metrics: event.metrics };
        if (event.trace !== undefined) metadata = { ...metadata, trace: event.trace };
        break;
      }
      default:
        // A new event type: nothing to show, and never a reason to fail.
        break;
    }
    if (finish !== undefined && sawMetadata) break;
  }
  if (finish === undefined) return;
  const providerMetadata: ProviderMetadata | undefined =
    Object.keys(metadata).length === 0 ? undefined : { [BEDROCK_PROTOCOL_ID]: metadata };
  yield {
    type: 'message-end',
    finishReason: finish,
    usage: usage ?? mapBedrockUsage(undefined),
    ...(providerMetadata === undefined ? {} : { providerMetadata }),
  };
}

/** The open block at `index` if it is of `kind`; otherwise closes what is there and opens a new one. */
function* ensure(
  open: Map<number, OpenBlock>,
  index: number,
  kind: OpenBlock['kind'],
  create: () => OpenBlock,
): Generator<StreamEvent, OpenBlock, undefined> {
  const existing = open.get(index);
  if (existing?.kind === kind) return existing;
  yield* close(open, index);
  const block = create();
  open.set(index, block);
  switch (block.kind) {
    case 'text':
      yield { type: 'text-start', blockId: block.blockId };
      break;
    case 'thinking':
      yield { type: 'thinking-start', blockId: block.blockId };
      break;
    case 'tool':
      yield { type: 'tool-call-start', blockId: block.blockId, toolCallId: block.toolCallId, toolName: block.toolName };
      break;
    case 'redacted':
      break;
  }
  return block;
}

function* close(open: Map<number, OpenBlock>, index: number): Generator<StreamEvent, void, undefined> {
  const block = open.get(index);
  if (block === undefined) return;
  open.delete(index);
  switch (block.kind) {
    case 'text':
      yield { type: 'text-end', blockId: block.blockId };
      break;
    case 'thinking':
      yield { type: 'thinking-end', blockId: block.blockId };
      break;
    case 'redacted':
      yield { type: 'redacted-thinking', blockId: block.blockId, data: block.parts.join('') };
      break;
    case 'tool': {
      const parsed = block.input.parse();
      yield {
        type: 'tool-call-end',
        blockId: block.blockId,
        toolCallId: block.toolCallId,
        toolName: block.toolName,
        ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
      };
      break;
    }
  }
}

function parseJson(payload: Uint8Array, eventType: string, providerId: string): unknown {
  const text = new TextDecoder().decode(payload);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
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
