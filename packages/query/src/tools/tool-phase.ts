import type { ToolUseBlock } from '@boxagnts/api';
import type { AgentRunner, AnyTool, ToolContext, ToolResult } from '@boxagnts/tools';
import type { EventBuffer } from '../event-buffer.js';
import type { QueryEvent, ToolEndEvent, ToolStartEvent } from '../events.js';
import type { LoopDetector } from './loop-detector.js';
import { type RunToolCallsOptions, startToolCalls } from './run-tool-calls.js';

/** The settings of a run's tool calls, fixed for the run. */
export interface ToolPhaseSettings {
  maxConcurrency: number;
  timeoutMs: number;
  maxResultChars: number;
  maxCalls: number;
}

/**
 * The tool calls of a run's turns: the settings fixed for the run, the loop detector, and what the
 * last turn's calls made of it (`looping`, `stop`). One object per run with its hooks on the
 * prototype, instead of closures over the loop's variables: a suspended generator keeps every
 * closure and variable of its body, and these are held by every in-flight run.
 */
export class ToolPhase {
  /** Whether a call of the last turn repeated earlier ones (its result got a note). */
  looping = false;
  /** Whether the repetition is long enough to end the run. */
  stop = false;

  constructor(
    readonly buffer: EventBuffer<QueryEvent>,
    private readonly detector: LoopDetector,
    private readonly settings: ToolPhaseSettings,
    private readonly agentsFor: ((toolCallId: string) => AgentRunner | undefined) | undefined,
  ) {}

  /**
   * Starts one turn's calls: their events go to the buffer, which counts them as busy until it
   * settles with one `tool_result` block per call (`buffer.result()`).
   */
  start(calls: readonly ToolUseBlock[], tools: ReadonlyMap<string, AnyTool>, context: ToolContext, turn: number): void {
    this.looping = false;
    this.stop = false;
    startToolCalls(calls, new TurnToolCalls(this, tools, context, turn), this.buffer);
  }

  /** Adds the loop detector's note to a result and records whether the calls loop. */
  annotate(call: ToolUseBlock, toolResult: ToolResult): ToolResult {
    const checked = this.detector.check(call, toolResult);
    this.looping ||= checked.looping;
    this.stop ||= checked.stop;
    return checked.result;
  }

  /** The settings, for {@link TurnToolCalls}. */
  get fixed(): ToolPhaseSettings {
    return this.settings;
  }

  /** The sub-agent runner factory, for {@link TurnToolCalls}. */
  get runners(): ((toolCallId: string) => AgentRunner | undefined) | undefined {
    return this.agentsFor;
  }
}

/**
 * The options of one turn's {@link startToolCalls}: every field set in the constructor (one shape, a
 * fast object, read on every call), `emit` and `annotate` on the prototype.
 */
class TurnToolCalls implements RunToolCallsOptions {
  readonly maxConcurrency: number;
  readonly timeoutMs: number;
  readonly maxResultChars: number;
  readonly maxCalls: number;
  readonly agentsFor: ((toolCallId: string) => AgentRunner | undefined) | undefined;

  constructor(
    private readonly phase: ToolPhase,
    readonly tools: ReadonlyMap<string, AnyTool>,
    readonly context: ToolContext,
    readonly turn: number,
  ) {
    const settings = phase.fixed;
    this.maxConcurrency = settings.maxConcurrency;
    this.timeoutMs = settings.timeoutMs;
    this.maxResultChars = settings.maxResultChars;
    this.maxCalls = settings.maxCalls;
    this.agentsFor = phase.runners;
  }

  emit(event: ToolStartEvent | ToolEndEvent): void {
    this.phase.buffer.push(event);
  }

  annotate(call: ToolUseBlock, result: ToolResult): ToolResult {
    return this.phase.annotate(call, result);
  }
}
