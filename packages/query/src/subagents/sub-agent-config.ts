import type { LlmProvider, ProviderRegistry } from '@boxagnts/api';
import type { SubAgentRequest } from '@boxagnts/tools';

/** Limits and defaults of sub-agents, for the whole tree of one run. */
export interface SubAgentConfig {
  /** How deep sub-agents may nest (a top-level run is depth 0; default 2). */
  maxDepth?: number;
  /** Sub-agents running at once in the whole tree (default 4). */
  maxConcurrent?: number;
  /**
   * Max turns of each sub-agent (default 10): the value when the request gives none, and the
   * ceiling of what the model asks for (its `max_turns` may only lower it).
   */
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
  /**
   * Resolves a model override of a request (`provider/model` or a bare model id) first; when it
   * returns undefined (or is absent) `provider/model` goes through {@link SubAgentConfig.providers}.
   */
  resolveModel?: (model: string) => { provider: LlmProvider; model: string } | undefined;
  /**
   * The provider registry that resolves `provider/model` overrides (default: the default registry
   * of @boxagnts/api, keys from the environment). The parent's own provider id keeps the parent's provider.
   */
  providers?: ProviderRegistry;
  /**
   * Prepares a sub-agent's working root (managed isolation); `finish`, called when the sub-agent
   * has ended (whatever the outcome), cleans up and may replace the note of its report.
   */
  prepareRoot?: (request: SubAgentRequest, id: string) => Promise<PreparedRoot>;
}

/** A sub-agent's own working root. */
export interface PreparedRoot {
  root: string;
  /** Added to the sub-agent's report. */
  note?: string;
  /** Called once the sub-agent has ended; its note (the change it made, say) replaces `note`. */
  finish?: () => Promise<{ note?: string }>;
}
