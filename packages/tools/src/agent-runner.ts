/** What a sub-agent run is asked to do. */
export interface SubAgentRequest {
  /** A short label (3-5 words) shown to the user. */
  description: string;
  /** The task, complete: the sub-agent sees nothing of the parent's conversation. */
  prompt: string;
  /** Tool names the sub-agent may use (default: the parent's, minus `agent`). */
  tools?: string[];
  /** Model calls it may make. Default 10. */
  maxTurns?: number;
  /** A model override (`provider/model`). */
  model?: string;
}

/** How a sub-agent run ended. */
export interface SubAgentResult {
  status: 'completed' | 'failed' | 'cancelled' | 'max_turns' | 'budget_exceeded';
  /** Its final answer (or what it had when it stopped). */
  output: string;
  turns: number;
  costUsd?: number;
  error?: string;
}

/** A background run's state. */
export type SubAgentStatus =
  | { id: string; state: 'running'; description: string; turns: number }
  | { id: string; state: 'done'; description: string; result: SubAgentResult };

/**
 * Starts sub-agents. Defined here (the `agent` tool needs it) and implemented by @boxagnts/query
 * (the loop), which passes it in through `ToolContext.agents`.
 */
export interface AgentRunner {
  /** Run to completion; cancelled with `signal` (and with it every child of the sub-agent). */
  run(request: SubAgentRequest, signal: AbortSignal): Promise<SubAgentResult>;
  /** Start in the background; returns its id at once. */
  start(request: SubAgentRequest): Promise<{ id: string }>;
  status(id: string): Promise<SubAgentStatus | undefined>;
  /** Wait for a background run, at most `timeoutMs`; returns its status then. */
  wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<SubAgentStatus | undefined>;
  cancel(id: string): Promise<boolean>;
}
