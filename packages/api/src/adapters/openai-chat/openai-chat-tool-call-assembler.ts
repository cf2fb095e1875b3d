import { checkToolInputValue, createToolInputBuffer, type ToolInputBuffer } from '../../shared/tool-input.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import type { ChatToolCallDelta } from './openai-chat-wire.js';

interface OpenCall {
  blockId: string;
  /** The id the call ends with: the server's (made unique within the message) or a generated one. */
  id: string;
  /** The server's own id, once it sent one (`""` and `null` do not count). */
  serverId: string | undefined;
  name: string;
  index: number | undefined;
  buffer: ToolInputBuffer;
  /** Arguments a server sent already parsed, instead of JSON text. */
  parsedArguments: unknown;
  hasArguments: boolean;
}

/** What the assembler needs from the stream it belongs to. */
export interface ToolCallAssemblerContext {
  /** A new block id, unique within the message. */
  nextBlockId(): string;
  /** Closes open text and thinking blocks before a tool call starts. */
  closeContentBlocks(events: StreamEvent[]): void;
}

/**
 * Assembles tool calls from Chat Completions deltas, whatever the server gets wrong. A fragment
 * belongs to the call with its `index`; without an index, to the call with its id, else to the call
 * opened last (a fragment with a new name after that call has arguments starts a new one). The same
 * index with a different server id starts a new call. An id that arrives after the first fragment
 * replaces the generated one (the start event carries the generated id, the end event the final
 * one); a call that never gets an id keeps `call_<block id>_<suffix>` (`suffix` is fixed per
 * message). A second call with an id already used in the message gets `_2`, `_3`, …. A name is taken
 * from the first fragment that has one (later `""` or repeats are ignored). Arguments are joined
 * as sent and parsed once at the end (a split `\u00e9` escape is fine), or checked as they are when
 * a server sends them already parsed; bad arguments give `inputError`, never an exception.
 */
export class ToolCallAssembler {
  private readonly calls: OpenCall[] = [];
  private readonly open = new Set<OpenCall>();
  private readonly byIndex = new Map<number, OpenCall>();
  private readonly byServerId = new Map<string, OpenCall>();
  private readonly usedIds = new Set<string>();
  private last: OpenCall | undefined;

  /**
   * @param idSuffix The suffix of generated ids, or a function giving it, called once at the first
   *   generated id (most streams never need one, so a random suffix is not drawn for them).
   */
  constructor(
    private readonly context: ToolCallAssemblerContext,
    private idSuffix: string | (() => string),
  ) {}

  /** Whether the message has any tool call. */
  get count(): number {
    return this.calls.length;
  }

  /** Applies one fragment, pushing the events it causes. */
  apply(fragment: ChatToolCallDelta, events: StreamEvent[]): void {
    const serverId = fragment.id !== undefined && fragment.id !== null && fragment.id !== '' ? fragment.id : undefined;
    const name = fragment.function?.name ?? '';
    const index = fragment.index ?? undefined;
    const argumentsValue = fragment.function?.arguments;
    let call = this.find(index, serverId, name);
    if (call === undefined) {
      // An empty fragment (no id, name or arguments, e.g. DashScope's trailing one) starts nothing.
      if (
        serverId === undefined &&
        name === '' &&
        (argumentsValue === undefined || argumentsValue === null || argumentsValue === '')
      ) {
        return;
      }
      call = this.start(index, serverId, name, events);
    } else if (serverId !== undefined && call.serverId === undefined) this.adoptLateId(call, serverId);
    if (call.name === '' && name !== '') call.name = name;
    if (typeof argumentsValue === 'string') {
      if (argumentsValue === '') return;
      call.hasArguments = true;
      call.buffer.append(argumentsValue);
      events.push({ type: 'tool-call-input-delta', blockId: call.blockId, delta: argumentsValue });
    } else if (argumentsValue !== undefined && argumentsValue !== null) {
      call.hasArguments = true;
      call.parsedArguments = argumentsValue;
      events.push({ type: 'tool-call-input-delta', blockId: call.blockId, delta: JSON.stringify(argumentsValue) });
    }
  }

  /** Ends every open call (at a finish reason or the end of the stream). */
  closeAll(events: StreamEvent[]): void {
    for (const call of this.open) this.end(call, events);
    this.open.clear();
    this.byIndex.clear();
    this.last = undefined;
  }

  private find(index: number | undefined, serverId: string | undefined, name: string): OpenCall | undefined {
    if (index !== undefined) {
      const call = this.byIndex.get(index);
      if (call === undefined) return undefined;
      // The same index reused for a new call: a different server id says so.
      if (serverId !== undefined && call.serverId !== undefined && call.serverId !== serverId) return undefined;
      return call;
    }
    const last = this.last !== undefined && this.open.has(this.last) ? this.last : undefined;
    if (serverId !== undefined) {
      const call = this.byServerId.get(serverId);
      if (call !== undefined && this.open.has(call)) return call;
      // A new id without a name, while the open call has none yet: that call's id arriving late.
      return last !== undefined && last.serverId === undefined && name === '' ? last : undefined;
    }
    if (last === undefined) return undefined;
    // No index and no id: a fragment naming a tool after the open call already has arguments starts a new call.
    if (name !== '' && last.name !== '' && last.hasArguments) return undefined;
    return last;
  }

  private start(
    index: number | undefined,
    serverId: string | undefined,
    name: string,
    events: StreamEvent[],
  ): OpenCall {
    if (index !== undefined) {
      const previous = this.byIndex.get(index);
      if (previous !== undefined) {
        this.end(previous, events);
        this.open.delete(previous);
      }
    }
    this.context.closeContentBlocks(events);
    const blockId = this.context.nextBlockId();
    const id = serverId === undefined ? this.generatedId(blockId) : this.uniqueId(serverId);
    const call: OpenCall = {
      blockId,
      id,
      serverId,
      name,
      index,
      buffer: createToolInputBuffer(),
      parsedArguments: undefined,
      hasArguments: false,
    };
    this.calls.push(call);
    this.open.add(call);
    this.last = call;
    if (index !== undefined) this.byIndex.set(index, call);
    if (serverId !== undefined) this.byServerId.set(serverId, call);
    events.push({ type: 'tool-call-start', blockId, toolCallId: id, toolName: name });
    return call;
  }

  private adoptLateId(call: OpenCall, serverId: string): void {
    this.usedIds.delete(call.id);
    call.serverId = serverId;
    call.id = this.uniqueId(serverId);
    this.byServerId.set(serverId, call);
  }

  private end(call: OpenCall, events: StreamEvent[]): void {
    const result = call.parsedArguments !== undefined ? checkToolInputValue(call.parsedArguments) : call.buffer.parse();
    events.push({
      type: 'tool-call-end',
      blockId: call.blockId,
      toolCallId: call.id,
      toolName: call.name,
      ...(result.ok ? { input: result.input } : { input: {}, inputError: result.error }),
    });
  }

  private generatedId(blockId: string): string {
    if (typeof this.idSuffix === 'function') this.idSuffix = this.idSuffix();
    return this.uniqueId(`call_${blockId}_${this.idSuffix}`);
  }

  private uniqueId(id: string): string {
    let candidate = id;
    for (let copy = 2; this.usedIds.has(candidate); copy += 1) candidate = `${id}_${copy}`;
    this.usedIds.add(candidate);
    return candidate;
  }
}
