import type { LlmProvider } from '@boxagnts/api';
import type { SubAgentRequest } from '@boxagnts/tools';

/** Limits and defaults of sub-agents, for the whole tree of one run. */
export interface SubAgentConfig {
  /** How deep sub-agents may nest (a top-level run is depth 0; default 2). */
  maxDepth?: number;
  /** Sub-agents running at once in the whole tree (default 4). */
  maxConcurrent?: number;
  /** Max turns when the request gives none (default 10). */
  defaultMaxTurns?: number;
  /** Longest a sub-agent may run, in ms (default 600,000). */
  timeoutMs?: number;
  /** Model calls of the whole tree (the top run and every sub-agent together); default unlimited. */
  maxTreeTurns?: number;
  /** USD limit of each sub-agent (the tree's own limit is the top run's `budgetUsd`). */
  budgetUsd?: number;
  /** The model sub-agents run on (default: the parent's). */
  model?: string;
  /** Their provider (default: the parent's). */
  provider?: LlmProvider;
  /** Resolves a model override of a request (`provider/model` or a bare model id). */
  resolveModel?: (model: string) => { provider: LlmProvider; model: string } | undefined;
  /** Prepares a sub-agent's working root (managed isolation); returns the root and a cleanup. */
  prepareRoot?: (request: SubAgentRequest, id: string) => Promise<{ root: string; note?: string }>;
}
