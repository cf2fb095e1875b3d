import type { AgentRunner } from './agent-runner.js';

/** Structured log lines from tools; hosts route them where they like. */
export interface ToolLogger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Records the cost of work a tool causes (e.g. a sub-agent's model calls). */
export interface CostTracker {
  /** Add a cost in USD, with what it was for. */
  add(costUsd: number, label: string): void;
  /** Total so far, in USD. */
  total(): number;
}

/** A question for the user, with optional choices. */
export interface UserQuestion {
  question: string;
  options?: Array<{ label: string; description?: string }>;
  multiSelect?: boolean;
}

/** The user's answer, or that no user is there to answer. */
export type UserAnswer = { answered: true; answer: string } | { answered: false; reason: string };

/** The run's mode as tools see it; plan mode allows only read-only tools. */
export interface RunMode {
  get(): 'default' | 'plan';
  /** Enter or leave plan mode; tools-manager enforces it on every later call. */
  set(mode: 'default' | 'plan'): void;
}

/**
 * What a tool gets besides its input: where it may work, how to stop, who it runs for, and the
 * host's services. Lower layers define these interfaces; higher layers implement them (the loop
 * implements `agents`).
 */
export interface ToolContext {
  /** The working root: tools that touch files stay inside it. */
  root: string;
  /** Aborted when the run is cancelled or the call times out; long work must stop on it. */
  signal: AbortSignal;
  sessionId: string;
  turnId: string;
  /** The id of this tool call (the model's tool_use id). */
  toolCallId: string;
  costs?: CostTracker;
  /** Hosts a tool may reach over the network (`web_fetch` and friends); empty means none. */
  allowedHosts?: readonly string[];
  /** Ask the user; absent in non-interactive runs. */
  ask?: (question: UserQuestion, signal: AbortSignal) => Promise<UserAnswer>;
  /** Start sub-agents (implemented by @boxagnts/query). */
  agents?: AgentRunner;
  /** The run's mode (plan mode), when the host supports it. */
  mode?: RunMode;
  logger?: ToolLogger;
}
