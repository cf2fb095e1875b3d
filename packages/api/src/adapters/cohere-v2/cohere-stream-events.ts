import type { SseEvent } from '../../shared/sse-parser.js';
import { createToolInputBuffer, type ToolInputBuffer } from '../../shared/tool-input.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { COHERE_PROTOCOL_ID } from './build-cohere-request.js';
import { cohereStreamError } from './cohere-errors.js';
import {
  type CohereStreamEvent,
  type CohereUsage,
  cohereContentDeltaSchema,
  cohereStreamEventSchema,
  cohereToolCallDeltaSchema,
} from './cohere-wire-types.js';
import { mapCohereFinishReason } from './map-cohere-finish-reason.js';
import { mapCohereUsage } from './map-cohere-usage.js';

/**
 * Tool-call ids within one message: a missing id becomes `call_<index>` and a repeated one gets
 * `_2`, `_3`… appended, so every call of a message has its own id (a broken server can send the same
 * id twice or none at all) and the same input always gets the same ids.
 */
export class ToolCallIds {
  private readonly used = new Set<string>();

  /** A unique id for the call at `index`, keeping the vendor's id when it is usable. */
  next(vendorId: string | undefined, index: number): string {
    const base = vendorId === undefined || vendorId.trim() === '' ? `call_${index}` : vendorId;
    let id = base;
    for (let copy = 2; this.used.has(id); copy += 1) id = `${base}_${copy}`;
    this.used.add(id);
    return id;
  }
}

type OpenBlock =
  | { kind: 'text'; blockId: string }
  | { kind: 'thinking'; blockId: string }
  | { kind: 'tool'; blockId: string; toolCallId: string; toolName: string; input: ToolInputBuffer };

/** The id of the text block a turn's `tool_plan` is streamed into. */
export const TOOL_PLAN_BLOCK_ID = 'tool-plan';

/** `billed_units` of a message's usage, as the `cohere` provider metadata keeps it. */
export function cohereMessageMetadata(
  usage: CohereUsage | undefined,
): Record<string, Record<string, unknown>> | undefined {
  return usage?.billed_units === undefined ? undefined : { [COHERE_PROTOCOL_ID]: { billed_units: usage.billed_units } };
}

/**
 * Maps Cohere v2 chat-stream events to block-scoped stream events:
 * `content-start` / `content-delta` / `content-end` are text or thinking blocks (`content-<index>`);
 * `tool-plan-delta` pieces form one text block (`tool-plan`, closed when anything else begins) whose
 * `cohere.toolPlan` metadata marks it, so it goes back as `tool_plan`; `tool-call-start` (id, name,
 * maybe a first piece of arguments) / `tool-call-delta` / `tool-call-end` are tool calls
 * (`tool-<index>`, input parsed at the end, `{}` when no argument text came); citations and debug
 * events are ignored. `message-end` gives the finish reason and usage; with an `error` text it is an
 * `error` event instead. A stream without `message-end` yields none, which the retry layer reports as
 * a cut connection. An event that is not JSON is a retryable `server` error.
 *
 * @see https://docs.cohere.com/reference/chat-stream
 * @see https://docs.cohere.com/v2/docs/streaming
 */
export async function* mapCohereStream(
  events: AsyncIterable<SseEvent>,
  context: { providerId: string; model: string },
): AsyncGenerator<StreamEvent, void, undefined> {
  const open = new Map<string, OpenBlock>();
  const ids = new ToolCallIds();
  let started = false;
  const start = (id?: string): StreamEvent[] => {
    if (started) return [];
    started = true;
    return [{ type: 'message-start', model: context.model, ...(id === undefined ? {} : { id }) }];
  };

  for await (const sse of events) {
    if (sse.data.trim() === '' || sse.data === '[DONE]') continue;
    const event = parseEvent(sse.data, context.providerId);
    const delta = event.delta;
    switch (event.type) {
      case 'message-start':
        yield* start(event.id);
        break;
      case 'content-start': {
        yield* start();
        yield* closePlan(open);
        const content = contentOf(event);
        const kind = content?.type === 'thinking' ? 'thinking' : 'text';
        const blockId = `content-${event.index ?? 0}`;
        yield* close(open, blockId);
        open.set(blockId, contentBlock(kind, blockId));
        yield { type: kind === 'thinking' ? 'thinking-start' : 'text-start', blockId };
        const first = kind === 'thinking' ? content?.thinking : content?.text;
        if (first !== undefined && first !== '') yield deltaEvent(kind, blockId, first);
        break;
      }
      case 'content-delta': {
        yield* start();
        const blockId = `content-${event.index ?? 0}`;
        const content = contentOf(event);
        const kind = content?.thinking !== undefined ? 'thinking' : 'text';
        if (open.get(blockId)?.kind !== kind) {
          yield* closePlan(open);
          yield* close(open, blockId);
          open.set(blockId, contentBlock(kind, blockId));
          yield { type: kind === 'thinking' ? 'thinking-start' : 'text-start', blockId };
        }
        const piece = content?.thinking ?? content?.text ?? '';
        if (piece !== '') yield deltaEvent(kind, blockId, piece);
        break;
      }
      case 'content-end':
        yield* close(open, `content-${event.index ?? 0}`);
        break;
      case 'tool-plan-delta': {
        yield* start();
        if (!open.has(TOOL_PLAN_BLOCK_ID)) {
          open.set(TOOL_PLAN_BLOCK_ID, { kind: 'text', blockId: TOOL_PLAN_BLOCK_ID });
          yield {
            type: 'text-start',
            blockId: TOOL_PLAN_BLOCK_ID,
            providerMetadata: { [COHERE_PROTOCOL_ID]: { toolPlan: true } },
          };
        }
        const piece = delta?.message?.tool_plan ?? '';
        if (piece !== '') yield { type: 'text-delta', blockId: TOOL_PLAN_BLOCK_ID, delta: piece };
        break;
      }
      case 'tool-call-start': {
        yield* start();
        yield* closePlan(open);
        const index = event.index ?? 0;
        const blockId = `tool-${index}`;
        yield* close(open, blockId);
        const call = toolCallOf(event);
        const block: OpenBlock = {
          kind: 'tool',
          blockId,
          toolCallId: ids.next(call?.id, index),
          toolName: call?.function?.name ?? '',
          input: createToolInputBuffer(),
        };
        open.set(blockId, block);
        yield { type: 'tool-call-start', blockId, toolCallId: block.toolCallId, toolName: block.toolName };
        yield* appendArguments(block, call?.function?.arguments);
        break;
      }
      case 'tool-call-delta': {
        yield* start();
        const index = event.index ?? 0;
        let block = open.get(`tool-${index}`);
        if (block?.kind !== 'tool') {
          block = {
            kind: 'tool',
            blockId: `tool-${index}`,
            toolCallId: ids.next(undefined, index),
            toolName: '',
            input: createToolInputBuffer(),
          };
          open.set(block.blockId, block);
          yield { type: 'tool-call-start', blockId: block.blockId, toolCallId: block.toolCallId, toolName: '' };
        }
        yield* appendArguments(block, toolCallOf(event)?.function?.arguments);
        break;
      }
      case 'tool-call-end':
        yield* close(open, `tool-${event.index ?? 0}`);
        break;
      case 'message-end': {
        yield* start();
        for (const blockId of [...open.keys()]) yield* close(open, blockId);
        if (delta?.error !== undefined && delta.error !== '') {
          yield { type: 'error', error: cohereStreamError(delta.error, context.providerId) };
          return;
        }
        const providerMetadata = cohereMessageMetadata(delta?.usage);
        yield {
          type: 'message-end',
          finishReason: mapCohereFinishReason(delta?.finish_reason),
          usage: mapCohereUsage(delta?.usage),
          ...(providerMetadata === undefined ? {} : { providerMetadata }),
        };
        return;
      }
      default:
        // citation-start / citation-end / debug and anything new: nothing to show, never a failure.
        break;
    }
  }
}

function contentOf(event: CohereStreamEvent) {
  const parsed = cohereContentDeltaSchema.safeParse(event.delta?.message?.content);
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

function* appendArguments(block: OpenBlock, piece: string | undefined): Generator<StreamEvent, void, undefined> {
  if (block.kind !== 'tool' || piece === undefined || piece === '') return;
  block.input.append(piece);
  yield { type: 'tool-call-input-delta', blockId: block.blockId, delta: piece };
}

function* closePlan(open: Map<string, OpenBlock>): Generator<StreamEvent, void, undefined> {
  yield* close(open, TOOL_PLAN_BLOCK_ID);
}

function* close(open: Map<string, OpenBlock>, blockId: string): Generator<StreamEvent, void, undefined> {
  const block = open.get(blockId);
  if (block === undefined) return;
  open.delete(blockId);
  if (block.kind === 'text') {
    yield { type: 'text-end', blockId };
    return;
  }
  if (block.kind === 'thinking') {
    yield { type: 'thinking-end', blockId };
    return;
  }
  const parsed = block.input.parse();
  yield {
    type: 'tool-call-end',
    blockId,
    toolCallId: block.toolCallId,
    toolName: block.toolName,
    ...(parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error }),
  };
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
