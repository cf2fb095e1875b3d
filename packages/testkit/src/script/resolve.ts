import { estimateTokens } from '../protocols/chunks.js';
import type { ProtocolId, ResolvedBlock, ResolvedTurn } from '../protocols/protocol.js';
import type { MockChunking, MockFault, MockTurn } from './types.js';

/** Id prefixes in each vendor's style, so ids look like the real thing to clients that check. */
const TOOL_ID_PREFIX: Record<ProtocolId, string> = {
  anthropic: 'toolu_',
  'openai-chat': 'call_',
  'openai-responses': 'call_',
  gemini: 'call_',
  bedrock: 'tooluse_',
  cohere: 'call_',
  ollama: 'call_',
};

const RESPONSE_ID_PREFIX: Record<ProtocolId, string> = {
  anthropic: 'msg_',
  'openai-chat': 'chatcmpl-',
  'openai-responses': 'resp_',
  gemini: '',
  bedrock: '',
  cohere: '',
  ollama: '',
};

/** Deterministic ids: a per-server counter, so recorded tests are stable run to run. */
export class IdSource {
  private next = 1;

  id(prefix: string): string {
    const value = this.next++;
    return `${prefix}mock${value.toString().padStart(6, '0')}`;
  }
}

export interface ResolveOptions {
  protocol: ProtocolId;
  requestedModel: string;
  ids: IdSource;
  /** Script-wide chunking, overridden by the turn's own. */
  chunking: MockChunking | undefined;
  /** A fault in force for this response (the turn's own, or one injected for this request). */
  fault: MockFault | undefined;
  now?: () => number;
}

/** Cut argument JSON so it can never parse: half of it, and never a complete object. */
function breakJson(text: string): string {
  const cut = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  return cut.endsWith('}') ? `${cut.slice(0, -1)},` : cut;
}

/** Apply defaults, ids and content-level faults to a scripted turn. */
export function resolveTurn(turn: MockTurn, options: ResolveOptions): ResolvedTurn {
  const { protocol, ids, fault } = options;
  const blocks = [
    ...(turn.text !== undefined ? [{ type: 'text' as const, text: turn.text }] : []),
    ...(turn.content ?? []),
  ];
  let sharedId: string | undefined;
  const content: ResolvedBlock[] = blocks.map((block) => {
    if (block.type === 'thinking') {
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    }
    if (block.type !== 'tool_call') return block;
    let id: string | undefined = block.id ?? ids.id(TOOL_ID_PREFIX[protocol]);
    if (fault?.kind === 'duplicate_tool_ids') {
      sharedId ??= id;
      id = sharedId;
    }
    if (fault?.kind === 'missing_tool_ids') id = undefined;
    let args = block.rawArguments ?? JSON.stringify(block.input ?? {});
    if (fault?.kind === 'malformed_tool_arguments') args = breakJson(args);
    return { type: 'tool_call', id, name: block.name, arguments: args };
  });
  const hasToolCalls = content.some((block) => block.type === 'tool_call');
  const outputText = content
    .map((block) => {
      if (block.type === 'text') return block.text;
      if (block.type === 'thinking') return block.thinking;
      if (block.type === 'tool_call') return block.arguments;
      return '';
    })
    .join('');
  const reasoningText = content.map((block) => (block.type === 'thinking' ? block.thinking : '')).join('');
  const chunking = { ...options.chunking, ...turn.chunking };
  const now = options.now ?? Date.now;
  return {
    content,
    stopReason: turn.stopReason ?? (hasToolCalls ? 'tool_use' : 'end_turn'),
    rawStopReason: turn.rawStopReason,
    usage: {
      input: turn.usage?.input ?? Math.max(10, (turn.usage?.cacheRead ?? 0) + (turn.usage?.cacheWrite ?? 0)),
      output: turn.usage?.output ?? estimateTokens(outputText),
      cacheRead: turn.usage?.cacheRead ?? 0,
      cacheWrite: turn.usage?.cacheWrite ?? 0,
      reasoning: turn.usage?.reasoning ?? (reasoningText ? estimateTokens(reasoningText) : 0),
    },
    model: turn.model ?? (options.requestedModel || 'mock-model'),
    responseId: ids.id(RESPONSE_ID_PREFIX[protocol] || `${protocol}-`),
    textDelta: chunking.textDelta ?? 16,
    argumentsDelta: chunking.argumentsDelta ?? 24,
    created: Math.floor(now() / 1000),
  };
}
