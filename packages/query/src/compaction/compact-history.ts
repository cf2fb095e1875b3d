import type { LlmProvider, Message } from '@boxagnts/api';
import type { AgentDefinition, CompactionConfig } from '../config.js';
import type { QueryEvent } from '../events.js';
import { estimateTokens } from './estimate-tokens.js';
import { findRecentCut } from './find-recent-cut.js';
import { type SummaryCall, summarizeConversation } from './summarize-conversation.js';
import { summarizeOldToolResults } from './summarize-tool-results.js';
import { SUMMARY_HEADING, SUMMARY_PREFIX, survivingFacts } from './surviving-facts.js';

/** What compaction works with. */
export interface CompactHistoryInput {
  messages: readonly Message[];
  provider: LlmProvider;
  model: string;
  config: CompactionConfig;
  signal: AbortSignal;
  /** The estimate to get under. */
  targetTokens: number;
  /** The current estimate. */
  tokens: number;
  /** Compact even when the estimate is under the target (the provider said the context overflowed). */
  force?: boolean;
  agent?: AgentDefinition;
  agentsMd?: string;
  /** Consulted before each summary call: false skips it (the run's budget is spent). */
  mayCall?: () => boolean;
}

/** The compacted history, or `changed: false` when nothing could be (or needed to be) done. */
export interface CompactHistoryResult {
  changed: boolean;
  messages: Message[];
  /** The summary message that now opens the history, when older turns were summarised. */
  summaryMessage?: Message;
  /** Messages kept verbatim after the summary. */
  keptMessages?: number;
  /** The auxiliary model calls compaction made (to be counted in usage, cost and budget). */
  calls?: SummaryCall[];
}

/** Turns kept whole by default. */
export const DEFAULT_KEEP_RECENT_TURNS = 4;

/**
 * Compacts a history in two phases: first old tool results become one-line summaries (recent
 * turns stay whole); if that is not enough, older turns are summarised by an auxiliary model call
 * that offers no tools, the last turns are kept verbatim (a tool call is never separated from its
 * result), and what must survive (agent constraints, AGENTS.md, skills in use, files touched,
 * configured facts) is written into the summary message. Yields status events; never throws.
 */
export async function* compactHistory(input: CompactHistoryInput): AsyncGenerator<QueryEvent, CompactHistoryResult> {
  const keepTurns = input.config.keepRecentTurns ?? DEFAULT_KEEP_RECENT_TURNS;
  const unchanged: CompactHistoryResult = { changed: false, messages: [...input.messages] };
  const cut = findRecentCut(input.messages, keepTurns);
  yield {
    type: 'status',
    kind: 'compacting',
    message: `Compacting the context (about ${input.tokens} tokens).`,
    data: { tokens: input.tokens, target: input.targetTokens },
  };
  const phaseOne = summarizeOldToolResults(input.messages, cut);
  const afterOne = estimateTokens(phaseOne.messages);
  if (!input.force && phaseOne.summarized > 0 && afterOne <= input.targetTokens) {
    yield {
      type: 'status',
      kind: 'compacted',
      message: `Summarised ${phaseOne.summarized} old tool result(s); about ${afterOne} tokens now.`,
      data: { phase: 'tool-results', summarized: phaseOne.summarized, tokens: afterOne },
    };
    return { changed: true, messages: phaseOne.messages };
  }
  if (cut <= 0) {
    if (phaseOne.summarized > 0) {
      yield {
        type: 'status',
        kind: 'compacted',
        message: `Summarised ${phaseOne.summarized} old tool result(s); no older turns to summarise.`,
        data: { phase: 'tool-results', summarized: phaseOne.summarized, tokens: afterOne },
      };
      return { changed: true, messages: phaseOne.messages };
    }
    return unchanged;
  }
  const older = phaseOne.messages.slice(0, cut);
  const recent = phaseOne.messages.slice(cut);
  const facts = survivingFacts(input.messages.slice(0, cut), {
    ...(input.agent ? { agent: input.agent } : {}),
    ...(input.agentsMd ? { agentsMd: input.agentsMd } : {}),
    preserve: input.config.preserve ?? [],
  });
  if (input.mayCall?.() === false) {
    yield {
      type: 'status',
      kind: 'compacted',
      message: 'Did not summarise older turns: the budget allows no further model call.',
      data: { phase: 'failed', error: 'budget' },
    };
    return phaseOne.summarized > 0 ? { changed: true, messages: phaseOne.messages } : unchanged;
  }
  const summary = await summarizeConversation({
    provider: input.provider,
    model: input.config.summaryModel ?? input.model,
    messages: older,
    facts,
    signal: input.signal,
    ...(input.mayCall ? { mayCall: input.mayCall } : {}),
  });
  const calls = summary.calls ?? [];
  if (!summary.ok) {
    yield {
      type: 'status',
      kind: 'compacted',
      message: `Could not summarise older turns (${summary.error}); kept the tool-result summaries only.`,
      data: { phase: 'failed', error: summary.error },
    };
    return phaseOne.summarized > 0 ? { changed: true, messages: phaseOne.messages, calls } : { ...unchanged, calls };
  }
  const summaryMessage: Message = {
    role: 'user',
    content: [
      `${SUMMARY_PREFIX} The earlier part of this conversation was compacted.`,
      facts.text,
      `${SUMMARY_HEADING}\n${summary.text.trim()}`,
      'Continue the task from here.',
    ]
      .filter((part) => part !== '')
      .join('\n\n'),
  };
  const messages = [summaryMessage, ...recent];
  const tokens = estimateTokens(messages);
  yield {
    type: 'status',
    kind: 'compacted',
    message: `Summarised ${older.length} earlier message(s); kept the last ${recent.length} verbatim; about ${tokens} tokens now.`,
    data: { phase: 'summary', summarizedMessages: older.length, keptMessages: recent.length, tokens },
  };
  return { changed: true, messages, summaryMessage, keptMessages: recent.length, calls };
}
