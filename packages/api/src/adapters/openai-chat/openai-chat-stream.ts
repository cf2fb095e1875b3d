import { randomBytes } from 'node:crypto';
import type { BatchSource } from '../../shared/batch-source.js';
import type { HttpErrorRule } from '../../shared/classify-http-error.js';
import { decodeSseStream } from '../../shared/decode-sse-stream.js';
import { createUsage } from '../../shared/usage.js';
import type { ProviderMetadata } from '../../spec/provider-metadata.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { SplicedStreamError } from '../../spec/stream-protocol-errors.js';
import type { FinishReason, Usage } from '../../spec/usage.js';
import { classifyStreamError } from './openai-chat-errors.js';
import { mapFinishReason } from './openai-chat-finish-reason.js';
import { OPENAI_CHAT_METADATA_KEY, type OpenAIChatReasoningField } from './openai-chat-settings.js';
import { ToolCallAssembler } from './openai-chat-tool-call-assembler.js';
import { mapUsage, sameUsage } from './openai-chat-usage.js';
import { type ChatChunk, type ChatDelta, parseChunk } from './openai-chat-wire.js';

/** Options of {@link ChatStreamMapper}. */
export interface ChatStreamMapperOptions {
  providerId: string;
  reasoningFields: readonly OpenAIChatReasoningField[];
  rules?: readonly HttpErrorRule[];
  url?: string;
  /** Suffix of generated tool-call ids; random per message by default. */
  idSuffix?: string;
}

type OpenContent = { type: 'text' | 'thinking'; blockId: string; refusal: boolean };

/**
 * Turns Chat Completions chunks into block-scoped stream events, one chunk at a time (events are
 * pushed to the array given, so a chunk costs no generator). Text, reasoning (`reasoning_content`
 * or `reasoning`, or Mistral's `thinking` content parts) and `refusal` text each open a block that
 * the next different kind closes; tool calls go through {@link ToolCallAssembler}. A finish reason
 * closes every open block; the message ends at `[DONE]`, or at the end of the body when a finish
 * reason came (servers that omit `[DONE]`). A body that ends with neither is a truncated stream: no
 * `message-end`, so the retry layer reports it. An `error` in a chunk ends the stream with an
 * `error` event. Usage: the last one reported wins (some servers repeat it on every chunk). A chunk
 * whose `id` differs from the message's (a second completion spliced into the stream) ends it with
 * a `SplicedStreamError`; chunks without an id are read as part of the message.
 *
 * Written to message metadata under `openai-chat`: `citations` and `search_results` (Perplexity),
 * `reasoning_details` (OpenRouter, merged by `index`). A refusal text block carries `{refusal: true}`.
 */
export class ChatStreamMapper {
  private started = false;
  private messageId: string | undefined;
  private failed = false;
  private ended = false;
  private blockCounter = 0;
  private current: OpenContent | undefined;
  private readonly tools: ToolCallAssembler;
  private finishRaw: string | undefined;
  private sawFinish = false;
  private sawRefusal = false;
  private usage: Usage | undefined;
  private rawUsage: unknown;
  private citations: unknown[] | undefined;
  private searchResults: unknown[] | undefined;
  private readonly reasoningDetails: Array<Record<string, unknown>> = [];

  constructor(private readonly options: ChatStreamMapperOptions) {
    this.tools = new ToolCallAssembler(
      {
        nextBlockId: () => this.nextBlockId(),
        closeContentBlocks: (events) => this.closeContent(events),
      },
      options.idSuffix ?? randomIdSuffix,
    );
  }

  /** Whether the stream is over (an error chunk arrived, or the message ended). */
  get done(): boolean {
    return this.failed || this.ended;
  }

  /** Applies one parsed chunk. */
  push(chunk: ChatChunk, events: StreamEvent[]): void {
    if (this.done) return;
    if (chunk.error !== undefined && chunk.error !== null) {
      this.failed = true;
      events.push({
        type: 'error',
        error: classifyStreamError(chunk.error, {
          providerId: this.options.providerId,
          ...(this.options.url === undefined ? {} : { url: this.options.url }),
          ...(this.options.rules === undefined ? {} : { rules: this.options.rules }),
        }),
      });
      return;
    }
    const choices = chunk.choices ?? [];
    const id = chunk.id ?? '';
    if (id !== '' && this.messageId !== undefined && id !== this.messageId) {
      this.failed = true;
      events.push({
        type: 'error',
        error: new SplicedStreamError({
          providerId: this.options.providerId,
          kind: 'changed-message-id',
          firstMessageId: this.messageId,
          secondMessageId: id,
          ...(this.options.url === undefined ? {} : { url: this.options.url }),
        }),
      });
      return;
    }
    if (id !== '') this.messageId = id;
    if (!this.started && (id !== '' || choices.length > 0)) this.start(chunk, events);
    for (const choice of choices) {
      // One answer per request (no `n > 1`): only the first choice is read.
      if ((choice.index ?? 0) !== 0) continue;
      const delta = choice.delta ?? choice.message;
      if (delta !== undefined && delta !== null) this.applyDelta(delta, events);
      if (choice.finish_reason !== undefined && choice.finish_reason !== null && choice.finish_reason !== '') {
        this.finishRaw = choice.finish_reason;
        this.sawFinish = true;
        this.closeBlocks(events);
      }
    }
    const usage = mapUsage(chunk.usage ?? chunk.x_groq?.usage);
    if (chunk.rawUsage !== undefined) this.rawUsage = chunk.rawUsage;
    if (usage !== undefined && !sameUsage(usage, this.usage)) {
      this.usage = usage;
      events.push({ type: 'usage', usage, ...(this.rawUsage === undefined ? {} : { raw: this.rawUsage }) });
    }
    if (chunk.citations !== undefined && chunk.citations !== null) this.citations = chunk.citations;
    if (chunk.search_results !== undefined && chunk.search_results !== null) this.searchResults = chunk.search_results;
  }

  /**
   * Ends the message: at `[DONE]` (`sawDone`), or at the end of the body, where it ends only when a
   * finish reason came (otherwise nothing is pushed and the stream counts as cut).
   */
  finish(sawDone: boolean, events: StreamEvent[]): void {
    if (this.done) return;
    if (!sawDone && !this.sawFinish) return;
    this.ended = true;
    this.closeBlocks(events);
    if (!this.started) events.push({ type: 'message-start' });
    const metadata = this.messageMetadata();
    events.push({
      type: 'message-end',
      finishReason: this.finishReason(),
      usage: this.usage ?? createUsage(),
      ...(this.rawUsage === undefined ? {} : { raw: this.rawUsage }),
      ...(metadata === undefined ? {} : { providerMetadata: metadata }),
    });
  }

  private start(chunk: ChatChunk, events: StreamEvent[]): void {
    this.started = true;
    const id = chunk.id ?? '';
    const model = chunk.model ?? '';
    events.push({
      type: 'message-start',
      ...(id === '' ? {} : { id }),
      ...(model === '' ? {} : { model }),
    });
  }

  private applyDelta(delta: ChatDelta, events: StreamEvent[]): void {
    for (const field of this.options.reasoningFields) {
      const reasoning = delta[field];
      if (typeof reasoning === 'string' && reasoning !== '') {
        this.appendContent('thinking', reasoning, events);
        break;
      }
    }
    if (delta.reasoning_details !== undefined && delta.reasoning_details !== null) {
      mergeReasoningDetails(this.reasoningDetails, delta.reasoning_details);
    }
    const content = delta.content;
    if (typeof content === 'string') {
      if (content !== '') this.appendContent('text', content, events);
    } else if (Array.isArray(content)) {
      for (const part of content) {
        if (part.type === 'thinking') {
          const thinking = part.thinking;
          const text =
            typeof thinking === 'string' ? thinking : (thinking ?? []).map((piece) => piece.text ?? '').join('');
          if (text !== '') this.appendContent('thinking', text, events);
        } else if (typeof part.text === 'string' && part.text !== '') {
          this.appendContent('text', part.text, events);
        }
      }
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.sawRefusal = true;
      this.appendContent('text', delta.refusal, events, true);
    }
    if (delta.tool_calls !== undefined && delta.tool_calls !== null) {
      for (const fragment of delta.tool_calls) this.tools.apply(fragment, events);
    }
  }

  private appendContent(type: 'text' | 'thinking', delta: string, events: StreamEvent[], refusal = false): void {
    const current = this.current;
    if (current === undefined || current.type !== type || current.refusal !== refusal) {
      this.closeContent(events);
      const blockId = this.nextBlockId();
      this.current = { type, blockId, refusal };
      if (type === 'thinking') events.push({ type: 'thinking-start', blockId });
      else
        events.push({
          type: 'text-start',
          blockId,
          ...(refusal ? { providerMetadata: { [OPENAI_CHAT_METADATA_KEY]: { refusal: true } } } : {}),
        });
      events.push(
        type === 'thinking' ? { type: 'thinking-delta', blockId, delta } : { type: 'text-delta', blockId, delta },
      );
      return;
    }
    events.push(
      type === 'thinking'
        ? { type: 'thinking-delta', blockId: current.blockId, delta }
        : { type: 'text-delta', blockId: current.blockId, delta },
    );
  }

  private closeContent(events: StreamEvent[]): void {
    const current = this.current;
    if (current === undefined) return;
    this.current = undefined;
    events.push(
      current.type === 'thinking'
        ? { type: 'thinking-end', blockId: current.blockId }
        : { type: 'text-end', blockId: current.blockId },
    );
  }

  private closeBlocks(events: StreamEvent[]): void {
    this.closeContent(events);
    this.tools.closeAll(events);
  }

  private nextBlockId(): string {
    const id = String(this.blockCounter);
    this.blockCounter += 1;
    return id;
  }

  /**
   * The vendor's finish reason, unified; two corrections where the raw value misleads: a turn with
   * tool calls that says `stop` (vLLM, LM Studio and other local servers do) is `tool-calls`, and a
   * turn whose text was a `refusal` is `refusal`.
   */
  private finishReason(): FinishReason {
    const mapped = mapFinishReason(this.finishRaw);
    if (this.tools.count > 0 && (mapped.unified === 'stop' || mapped.unified === 'other')) {
      return { unified: 'tool-calls', raw: mapped.raw };
    }
    if (this.sawRefusal && (mapped.unified === 'stop' || mapped.unified === 'other')) {
      return { unified: 'refusal', raw: mapped.raw };
    }
    return mapped;
  }

  private messageMetadata(): ProviderMetadata | undefined {
    const values: Record<string, unknown> = {};
    if (this.citations !== undefined) values.citations = this.citations;
    if (this.searchResults !== undefined) values.search_results = this.searchResults;
    if (this.reasoningDetails.length > 0) values.reasoning_details = this.reasoningDetails;
    return Object.keys(values).length === 0 ? undefined : { [OPENAI_CHAT_METADATA_KEY]: values };
  }
}

/**
 * Reads a Chat Completions `text/event-stream` body into stream events with the shared SSE read loop
 * (one batch per network chunk; a keep-alive comment such as OpenRouter's `: OPENROUTER PROCESSING`,
 * or a chunk with nothing to show, restarts the stall timers). After `[DONE]` or an error chunk the
 * rest of the body is still read (and ignored) to its end: returning early would cancel the body and
 * undici would destroy the keep-alive socket.
 */
export function decodeChatStream(body: AsyncIterable<Uint8Array>, mapper: ChatStreamMapper): BatchSource {
  return decodeSseStream(body, {
    event: (_type, data, out) => {
      if (mapper.done) return;
      if (data === '[DONE]') {
        mapper.finish(true, out);
        return;
      }
      const chunk = parseChunk(data);
      if (chunk !== undefined) mapper.push(chunk, out);
    },
    end: (out) => mapper.finish(false, out),
  });
}

const CONCATENATED_DETAIL_FIELDS = ['text', 'summary', 'data'] as const;

/**
 * Merges streamed `reasoning_details` pieces: a piece with the same `index` (or, without one, the
 * same `type` as the last detail) extends it, its text fields concatenated and other fields (id,
 * signature, format) taken when they appear; anything else is a new detail.
 */
export function mergeReasoningDetails(
  details: Array<Record<string, unknown>>,
  pieces: ReadonlyArray<Record<string, unknown>>,
): void {
  for (const piece of pieces) {
    const index = typeof piece.index === 'number' ? piece.index : undefined;
    const target =
      index === undefined
        ? details.at(-1)?.type === piece.type && details.at(-1)?.index === undefined
          ? details.at(-1)
          : undefined
        : details.find((detail) => detail.index === index);
    if (target === undefined) {
      details.push({ ...piece });
      continue;
    }
    for (const [key, value] of Object.entries(piece)) {
      if (value === undefined || value === null) continue;
      const concatenated = (CONCATENATED_DETAIL_FIELDS as readonly string[]).includes(key);
      if (concatenated && typeof value === 'string' && typeof target[key] === 'string') {
        target[key] = `${target[key] as string}${value}`;
      } else {
        target[key] = value;
      }
    }
  }
}

/** A random suffix for generated tool-call ids, drawn only when a stream needs one (`randomBytes` is a syscall). */
function randomIdSuffix(): string {
  return randomBytes(4).toString('hex');
}
