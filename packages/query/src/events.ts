import type { AssistantMessage, FinishReason, JsonObject, LlmError, Message, Usage } from '@boxagnts/api';
import type { ToolResult } from '@boxagnts/tools';
import type { QueryOutcome, RunUsage } from './outcome.js';
import type { ModelCallPurpose } from './session/session-store.js';

/** A model call begins (`turn` counts every call of the run, from 1). */
export interface TurnStartEvent {
  type: 'turn-start';
  turn: number;
  model: string;
}

/** Streamed answer text. */
export interface TextDeltaEvent {
  type: 'text-delta';
  turn: number;
  delta: string;
}

/** Streamed reasoning text. */
export interface ThinkingDeltaEvent {
  type: 'thinking-delta';
  turn: number;
  delta: string;
}

/** A model call ended: the message as stored in the history, why it ended, and its usage. */
export interface TurnEndEvent {
  type: 'turn-end';
  turn: number;
  model: string;
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: Usage;
}

/** A tool call starts. */
export interface ToolStartEvent {
  type: 'tool-start';
  turn: number;
  toolCallId: string;
  name: string;
  input: JsonObject;
}

/** A tool call finished (or was refused): its result as the model will see it. */
export interface ToolEndEvent {
  type: 'tool-end';
  turn: number;
  toolCallId: string;
  name: string;
  input: JsonObject;
  result: ToolResult;
  durationMs: number;
}

/** Something the user should see that is not model output ("compacting context", "switching to fallback"). */
export interface StatusEvent {
  type: 'status';
  kind:
    | 'compacting'
    | 'compacted'
    | 'fallback'
    | 'resume-after-max-tokens'
    | 'retry-turn'
    | 'tool-results-trimmed'
    | 'tool-loop'
    | 'pending-messages';
  message: string;
  data?: Record<string, unknown>;
}

/** Usage and cost after each model call: the call's own and the run's totals. */
export interface UsageEvent {
  type: 'usage';
  turn: number;
  model: string;
  usage: Usage;
  /** USD of this call; `undefined` when its model is not in the catalogue. */
  costUsd: number | undefined;
  totals: RunUsage;
  /** What the call was for; absent for the loop's own turns (`turn`), `compaction` for a summary call. */
  purpose?: ModelCallPurpose;
}

/** The context is filling up: `warning` (default 80%) then `critical` (default 90%) of the window. */
export interface TokenPressureEvent {
  type: 'token-pressure';
  level: 'warning' | 'critical';
  tokens: number;
  contextWindow: number;
}

/** A failure the loop recovers from (and how). */
export interface RecoverableErrorEvent {
  type: 'recoverable-error';
  error: LlmError;
  action: 'retry-turn' | 'fallback' | 'compact';
  attempt: number;
}

/** Pending user messages were added to the history before a call. */
export interface UserMessageEvent {
  type: 'user-message';
  message: Message;
}

/** An event of a sub-agent, tagged with the sub-agent and the tool call that started it. */
export interface SubAgentEvent {
  type: 'sub-agent';
  agentId: string;
  parentToolCallId: string;
  depth: number;
  event: QueryEvent;
}

/** The last event of every run. */
export interface DoneEvent {
  type: 'done';
  outcome: QueryOutcome;
}

/** Everything a run reports, in order. */
export type QueryEvent =
  | TurnStartEvent
  | TextDeltaEvent
  | ThinkingDeltaEvent
  | TurnEndEvent
  | ToolStartEvent
  | ToolEndEvent
  | StatusEvent
  | UsageEvent
  | TokenPressureEvent
  | RecoverableErrorEvent
  | UserMessageEvent
  | SubAgentEvent
  | DoneEvent;
