import type { ProviderRegistry } from '@boxagnts/api';
import type { Workspace } from '@boxagnts/workspace';
import type { Agent } from '../agent/create-agent.js';
import type { RunManager } from '../runs/run-manager.js';

/** What every route handler can reach. */
export interface GatewayServices {
  workspace: Workspace;
  runs: RunManager;
  /** The composed agent of a name and model (made once, cached). */
  agent(name?: string, model?: string): Promise<Agent>;
  /** Leases an agent for one run (a tool set is never shared by two runs at once). */
  acquireAgent(name: string | undefined, model: string | undefined): Promise<{ agent: Agent; release(): void }>;
  /** The registry configured from the workspace (providers route, model resolution). */
  registry(): Promise<ProviderRegistry>;
  /** Milliseconds between SSE heartbeat comments. */
  heartbeatMs: number;
  /**
   * Composes agents again from the workspace as it is now (after a settings write: permissions,
   * AGENTS.md, output styles); runs in progress finish with the agent they have.
   */
  refreshAgents?(): void;
}

/** Hono's environment type of the gateway app. */
export interface GatewayEnv {
  Variables: { tokenName: string | undefined };
}
