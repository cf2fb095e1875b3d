import type { MockStopReason } from '../script/types.js';
import type { ResolvedTurn } from './protocol.js';

/** One output item of a response, before it is written in any particular event. */
export type ResponsesItem =
  | { kind: 'reasoning'; id: string; summary: string; encryptedContent: string | undefined }
  | { kind: 'message'; id: string; text: string }
  | { kind: 'function_call'; id: string; callId: string | undefined; name: string; arguments: string };

/**
 * The turn's blocks as Responses output items, each with an item id derived from the response id
 * (`rs_…`, `msg_…`, `fc_…`). Thinking becomes a `reasoning` item whose summary is the thinking text
 * and whose `encrypted_content` is the signature; redacted thinking has no Responses form and is left out.
 */
export function responsesItems(turn: ResolvedTurn): ResponsesItem[] {
  const suffix = turn.responseId.replace(/^resp_/, '');
  const items: ResponsesItem[] = [];
  turn.content.forEach((block, index) => {
    if (block.type === 'thinking') {
      items.push({
        kind: 'reasoning',
        id: `rs_${suffix}_${index}`,
        summary: block.thinking,
        encryptedContent: block.signature,
      });
    } else if (block.type === 'text') {
      items.push({ kind: 'message', id: `msg_${suffix}_${index}`, text: block.text });
    } else if (block.type === 'tool_call') {
      items.push({
        kind: 'function_call',
        id: `fc_${suffix}_${index}`,
        callId: block.id,
        name: block.name,
        arguments: block.arguments,
      });
    }
  });
  return items;
}

/** The `output_text` content part of a message. */
export function outputText(text: string): Record<string, unknown> {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

/** The summary part of a reasoning item. */
export function summaryText(text: string): Record<string, unknown> {
  return { type: 'summary_text', text };
}

/**
 * An output item as `response.output_item.added` announces it (`done: false`: empty and
 * `in_progress`) or as `response.output_item.done` and the final response carry it.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function itemObject(item: ResponsesItem, done: boolean): Record<string, unknown> {
  switch (item.kind) {
    case 'reasoning': {
      const object: Record<string, unknown> = {
        id: item.id,
        type: 'reasoning',
        summary: done && item.summary !== '' ? [summaryText(item.summary)] : [],
      };
      if (item.encryptedContent !== undefined) object.encrypted_content = item.encryptedContent;
      return object;
    }
    case 'message':
      return {
        id: item.id,
        type: 'message',
        status: done ? 'completed' : 'in_progress',
        content: done ? [outputText(item.text)] : [],
        role: 'assistant',
      };
    case 'function_call': {
      const object: Record<string, unknown> = {
        id: item.id,
        type: 'function_call',
        status: done ? 'completed' : 'in_progress',
        arguments: done ? item.arguments : '',
      };
      if (item.callId !== undefined) object.call_id = item.callId;
      object.name = item.name;
      return object;
    }
  }
}

/** How a response ends: `completed`, or `incomplete` with the reason in `incomplete_details`. */
export interface ResponsesOutcome {
  status: 'completed' | 'incomplete';
  incompleteReason: string | undefined;
}

/**
 * The Responses API has no stop reason: a response is `completed`, or `incomplete` with
 * `incomplete_details.reason` `max_output_tokens` or `content_filter`. A refusal is reported like a
 * content filter (as in Chat Completions); tool calls, pauses and stop sequences complete normally.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-incomplete_details
 */
export function openaiResponsesOutcome(reason: MockStopReason): ResponsesOutcome {
  switch (reason) {
    case 'max_tokens':
      return { status: 'incomplete', incompleteReason: 'max_output_tokens' };
    case 'refusal':
    case 'content_filter':
      return { status: 'incomplete', incompleteReason: 'content_filter' };
    default:
      return { status: 'completed', incompleteReason: undefined };
  }
}

/** The outcome of a turn; a raw stop value is sent verbatim as `incomplete_details.reason`. */
export function turnOutcome(turn: ResolvedTurn): ResponsesOutcome {
  if (turn.rawStopReason !== undefined) return { status: 'incomplete', incompleteReason: turn.rawStopReason };
  return openaiResponsesOutcome(turn.stopReason);
}

/**
 * Usage in the Responses shape. `input_tokens` counts every input token, cached ones included;
 * `input_tokens_details` and `output_tokens_details` break out cache reads, cache writes and reasoning.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function openaiResponsesUsage(turn: ResolvedTurn): Record<string, unknown> {
  const { input, output, cacheRead, cacheWrite, reasoning } = turn.usage;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cacheRead, cache_write_tokens: cacheWrite },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}
