import type { JsonObject } from '../spec/json-value.js';
import type { LlmError } from '../spec/llm-error.js';
import { NetworkError } from '../spec/llm-error-classes.js';
import type { AssistantContentBlock, AssistantMessage, ToolInputError } from '../spec/message.js';
import type { ProviderMetadata } from '../spec/provider-metadata.js';
import type { AssistantResponse } from '../spec/response.js';
import type { StreamEvent } from '../spec/stream-event.js';
import type { FinishReason, Usage } from '../spec/usage.js';
import { mergeProviderMetadata } from './provider-metadata.js';
import { parseToolInput } from './tool-input.js';
import { createUsage } from './usage.js';

type OpenBlock =
  | { type: 'text'; parts: string[]; providerMetadata: ProviderMetadata | undefined }
  | {
      type: 'thinking';
      parts: string[];
      signature: string[];
      finalSignature?: string;
      providerMetadata: ProviderMetadata | undefined;
    }
  | { type: 'redacted_thinking'; data: string; providerMetadata: ProviderMetadata | undefined }
  | {
      type: 'tool_use';
      id: string;
      name: string;
      parts: string[];
      result?: { input: JsonObject; inputError?: ToolInputError };
      providerMetadata: ProviderMetadata | undefined;
    };

/**
 * Builds an {@link AssistantResponse} from stream events, incrementally: push events as they come and
 * read {@link MessageAssembler.toResponse} at any point (a partial message while streaming, the
 * final one after `message-end`). Blocks keep the order of their start events, text is kept exactly
 * as received, and provider metadata from start and end events is merged onto each block. A delta
 * for a block that never started opens it, so a sloppy adapter loses nothing.
 */
export class MessageAssembler {
  private readonly blocks: OpenBlock[] = [];
  private readonly byId = new Map<string, OpenBlock>();
  private id: string | undefined;
  private model: string | undefined;
  private messageMetadata: ProviderMetadata | undefined;
  private usage: Usage | undefined;
  private finish: FinishReason | undefined;
  private failure: LlmError | undefined;

  /** Whether a terminal event (`message-end` or `error`) has arrived. */
  get done(): boolean {
    return this.finish !== undefined || this.failure !== undefined;
  }

  /** The error of a terminal `error` event, if one arrived. */
  get error(): LlmError | undefined {
    return this.failure;
  }

  /** Applies one event; events after a terminal event are ignored. */
  push(event: StreamEvent): void {
    if (this.done) return;
    switch (event.type) {
      case 'message-start':
        this.id = event.id ?? this.id;
        this.model = event.model ?? this.model;
        this.messageMetadata = mergeProviderMetadata(this.messageMetadata, event.providerMetadata);
        break;
      case 'text-start':
        this.open(event.blockId, { type: 'text', parts: [], providerMetadata: event.providerMetadata });
        break;
      case 'text-delta':
        this.textBlock(event.blockId).parts.push(event.delta);
        break;
      case 'text-end':
        this.addMetadata(this.textBlock(event.blockId), event.providerMetadata);
        break;
      case 'thinking-start':
        this.open(event.blockId, {
          type: 'thinking',
          parts: [],
          signature: [],
          providerMetadata: event.providerMetadata,
        });
        break;
      case 'thinking-delta':
        this.thinkingBlock(event.blockId).parts.push(event.delta);
        break;
      case 'thinking-signature-delta':
        this.thinkingBlock(event.blockId).signature.push(event.delta);
        break;
      case 'thinking-end': {
        const block = this.thinkingBlock(event.blockId);
        if (event.signature !== undefined) block.finalSignature = event.signature;
        this.addMetadata(block, event.providerMetadata);
        break;
      }
      case 'redacted-thinking':
        this.open(event.blockId, {
          type: 'redacted_thinking',
          data: event.data,
          providerMetadata: event.providerMetadata,
        });
        break;
      case 'tool-call-start':
        this.open(event.blockId, {
          type: 'tool_use',
          id: event.toolCallId,
          name: event.toolName,
          parts: [],
          providerMetadata: event.providerMetadata,
        });
        break;
      case 'tool-call-input-delta':
        this.toolBlock(event.blockId).parts.push(event.delta);
        break;
      case 'tool-call-end': {
        const block = this.toolBlock(event.blockId, event.toolCallId, event.toolName);
        block.id = event.toolCallId;
        block.name = event.toolName;
        block.result =
          event.inputError === undefined
            ? { input: event.input }
            : { input: event.input, inputError: event.inputError };
        this.addMetadata(block, event.providerMetadata);
        break;
      }
      case 'usage':
        this.usage = event.usage;
        break;
      case 'message-end':
        this.usage = event.usage;
        this.finish = event.finishReason;
        this.messageMetadata = mergeProviderMetadata(this.messageMetadata, event.providerMetadata);
        break;
      case 'error':
        this.failure = event.error;
        break;
    }
  }

  /**
   * The message as assembled so far. Before `message-end` the finish reason is `error` (after an
   * error event) or `other` with raw `incomplete`, and open tool calls are parsed from their deltas.
   */
  toResponse(): AssistantResponse {
    const message: AssistantMessage = { role: 'assistant', content: this.blocks.map(finishBlock) };
    if (this.messageMetadata !== undefined) message.providerMetadata = this.messageMetadata;
    const finishReason: FinishReason =
      this.finish ??
      (this.failure === undefined
        ? { unified: 'other', raw: 'incomplete' }
        : { unified: 'error', raw: this.failure.reason });
    const usage = this.usage ?? createUsage();
    // Literals in the common shapes, not conditional spreads: this runs once per model call.
    if (this.id !== undefined && this.model !== undefined) {
      return { id: this.id, model: this.model, message, finishReason, usage };
    }
    const response: AssistantResponse = { message, finishReason, usage };
    if (this.model !== undefined) return { model: this.model, ...response };
    if (this.id !== undefined) return { id: this.id, ...response };
    return response;
  }

  private open(blockId: string, block: OpenBlock): OpenBlock {
    block.providerMetadata = mergeProviderMetadata(undefined, block.providerMetadata);
    this.blocks.push(block);
    this.byId.set(blockId, block);
    return block;
  }

  private addMetadata(block: OpenBlock, metadata: ProviderMetadata | undefined): void {
    block.providerMetadata = mergeProviderMetadata(block.providerMetadata, metadata);
  }

  private textBlock(blockId: string): Extract<OpenBlock, { type: 'text' }> {
    const block = this.byId.get(blockId);
    if (block?.type === 'text') return block;
    const opened = { type: 'text' as const, parts: [], providerMetadata: undefined };
    this.open(blockId, opened);
    return opened;
  }

  private thinkingBlock(blockId: string): Extract<OpenBlock, { type: 'thinking' }> {
    const block = this.byId.get(blockId);
    if (block?.type === 'thinking') return block;
    const opened = { type: 'thinking' as const, parts: [], signature: [], providerMetadata: undefined };
    this.open(blockId, opened);
    return opened;
  }

  private toolBlock(blockId: string, id = '', name = ''): Extract<OpenBlock, { type: 'tool_use' }> {
    const block = this.byId.get(blockId);
    if (block?.type === 'tool_use') return block;
    const opened = { type: 'tool_use' as const, id, name, parts: [], providerMetadata: undefined };
    this.open(blockId, opened);
    return opened;
  }
}

function finishBlock(block: OpenBlock): AssistantContentBlock {
  // Optional fields are assigned after the literal (same key order as before), never spread.
  let finished: AssistantContentBlock;
  switch (block.type) {
    case 'text':
      finished = { type: 'text', text: block.parts.length === 1 ? (block.parts[0] as string) : block.parts.join('') };
      break;
    case 'thinking': {
      const signature = block.finalSignature ?? (block.signature.length > 0 ? block.signature.join('') : undefined);
      finished = { type: 'thinking', thinking: block.parts.join('') };
      if (signature !== undefined) finished.signature = signature;
      break;
    }
    case 'redacted_thinking':
      finished = { type: 'redacted_thinking', data: block.data };
      break;
    case 'tool_use': {
      const result = block.result ?? fromDeltas(block.parts.join(''));
      finished = { type: 'tool_use', id: block.id, name: block.name, input: result.input };
      if (result.inputError !== undefined) finished.inputError = result.inputError;
      break;
    }
  }
  if (block.providerMetadata !== undefined) finished.providerMetadata = block.providerMetadata;
  return finished;
}

function fromDeltas(text: string): { input: JsonObject; inputError?: ToolInputError } {
  const parsed = parseToolInput(text);
  return parsed.ok ? { input: parsed.input } : { input: {}, inputError: parsed.error };
}

/**
 * Consumes a whole event stream and returns the final response: how `createMessage` can be built on
 * `streamMessage` so both yield the same message. Rejects with the `LlmError` of an `error` event,
 * or a {@link NetworkError} when the events end without `message-end`.
 *
 * @example
 * const response = await assembleMessage(provider.streamMessage(request, { signal }));
 */
export async function assembleMessage(
  events: AsyncIterable<StreamEvent> | Iterable<StreamEvent>,
): Promise<AssistantResponse> {
  const assembler = new MessageAssembler();
  for await (const event of events) {
    assembler.push(event);
    if (assembler.done) break;
  }
  if (assembler.error !== undefined) throw assembler.error;
  if (!assembler.done) {
    throw new NetworkError({ message: 'The event stream ended before the message was complete (no message end).' });
  }
  return assembler.toResponse();
}
