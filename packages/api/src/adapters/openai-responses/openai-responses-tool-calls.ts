import { createToolInputBuffer, parseToolInput, type ToolInputBuffer } from '../../shared/tool-input.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { withOpenAIResponsesMetadata } from './openai-responses-metadata.js';
import { expandParallelToolWrapper, isParallelWrapperCandidate } from './openai-responses-parallel-tool-wrapper.js';

/** One `function_call` or `custom_tool_call` output item while it streams. */
export interface ToolCallItem {
  kind: 'call';
  /** The item key, also the block id. */
  key: string;
  wireId: string | undefined;
  outputIndex: number;
  custom: boolean;
  name: string;
  callId: string;
  buffer: ToolInputBuffer;
  /** The complete text of a `*.done` event, which wins over the deltas. */
  finalText: string | undefined;
  /** A possible parallel wrapper: nothing is emitted until its arguments are complete. */
  held: boolean;
  started: boolean;
  ended: boolean;
}

/** What a new call is made from (an output item as received). */
export interface ToolCallSource {
  type: string;
  id?: string | undefined;
  call_id?: string | undefined;
  name?: string | undefined;
}

/**
 * The tool calls of one response: unique ids, block events, argument parsing. A call's id is its
 * `call_id`; a missing one becomes `call_<output_index>` and a repeated one gets `_2`, `_3`, ...,
 * so ids are unique and stable within the message. Function-call arguments stream as
 * `tool-call-input-delta`s and are parsed once at the end (the `*.done` text wins); malformed JSON
 * gives `input: {}` with `inputError`. A custom tool's free-text input is not JSON, so it streams
 * no deltas and ends as `{input: text}`. A call to the parallel wrapper is held back and, when its
 * arguments name declared tools, emitted as those calls (`<call_id>_1`, `_2`, ...).
 */
export class OpenAIResponsesToolCalls {
  private readonly usedIds = new Set<string>();

  constructor(private readonly declaredToolNames: ReadonlySet<string>) {}

  /** Creates the state of a call announced by `item` and emits its start (unless held back). */
  add(item: ToolCallSource, key: string, outputIndex: number, out: StreamEvent[]): ToolCallItem {
    const custom = item.type === 'custom_tool_call';
    const name = item.name ?? '';
    const call: ToolCallItem = {
      kind: 'call',
      key,
      wireId: item.id,
      outputIndex,
      custom,
      name,
      callId: this.uniqueId(item.call_id, outputIndex),
      buffer: createToolInputBuffer(),
      finalText: undefined,
      held: !custom && isParallelWrapperCandidate(name, this.declaredToolNames),
      started: false,
      ended: false,
    };
    if (!call.held) this.start(call, out);
    return call;
  }

  /** Appends argument text; emits it as a delta when the call is visible and JSON. */
  delta(call: ToolCallItem, delta: string, out: StreamEvent[]): void {
    call.buffer.append(delta);
    if (call.started && !call.custom) out.push({ type: 'tool-call-input-delta', blockId: call.key, delta });
  }

  /** Ends the call with its complete argument text (once). */
  end(call: ToolCallItem, text: string, out: StreamEvent[]): void {
    if (call.ended) return;
    call.ended = true;
    if (call.held && this.endAsUnwrapped(call, text, out)) return;
    if (!call.started) {
      this.start(call, out);
      if (text !== '' && !call.custom) out.push({ type: 'tool-call-input-delta', blockId: call.key, delta: text });
    }
    const end = { type: 'tool-call-end' as const, blockId: call.key, toolCallId: call.callId, toolName: call.name };
    if (call.custom) {
      out.push({ ...end, input: { input: text } });
      return;
    }
    const parsed = parseToolInput(text);
    out.push(parsed.ok ? { ...end, input: parsed.input } : { ...end, input: {}, inputError: parsed.error });
  }

  private endAsUnwrapped(call: ToolCallItem, text: string, out: StreamEvent[]): boolean {
    const calls = expandParallelToolWrapper(text, this.declaredToolNames);
    if (calls === undefined) return false;
    calls.forEach((unwrapped, index) => {
      const blockId = `${call.key}:${index}`;
      const toolCallId = this.uniqueId(`${call.callId}_${index + 1}`, call.outputIndex);
      const toolName = unwrapped.name;
      out.push({ type: 'tool-call-start', blockId, toolCallId, toolName });
      out.push({ type: 'tool-call-input-delta', blockId, delta: JSON.stringify(unwrapped.input) });
      out.push({ type: 'tool-call-end', blockId, toolCallId, toolName, input: unwrapped.input });
    });
    return true;
  }

  private uniqueId(raw: string | undefined, outputIndex: number): string {
    const base = raw === undefined || raw === '' ? `call_${outputIndex}` : raw;
    let id = base;
    for (let suffix = 2; this.usedIds.has(id); suffix += 1) id = `${base}_${suffix}`;
    this.usedIds.add(id);
    return id;
  }

  private start(call: ToolCallItem, out: StreamEvent[]): void {
    call.started = true;
    out.push({
      type: 'tool-call-start',
      blockId: call.key,
      toolCallId: call.callId,
      toolName: call.name,
      ...withOpenAIResponsesMetadata({ itemId: call.wireId, customToolCall: call.custom || undefined }),
    });
  }
}
