import { type AgentDefinition, BUILTIN_AGENTS } from '@boxagnts/query';
import type { AgentConfig } from '../config/config-defaults.js';

/** An agent of a workspace: the loop's {@link AgentDefinition} plus what user interfaces show. */
export interface WorkspaceAgent extends AgentDefinition {
  /** Shown in agent pickers; hidden agents can still be run by name (as sub-agents). Default true. */
  visible: boolean;
  /** A terminal colour name or `#rrggbb`. */
  color?: string;
  /** True for build, plan and explore (possibly with configured overrides). */
  builtin: boolean;
}

/**
 * The workspace's agents: the three built-ins with the configured fields laid over them, then the
 * configured agents (the schema has checked that those have a description and an access level).
 */
export function mergeAgents(configured: Readonly<Record<string, AgentConfig>>): Record<string, WorkspaceAgent> {
  const agents: Record<string, WorkspaceAgent> = {};
  const builtins: Record<string, AgentDefinition> = BUILTIN_AGENTS;
  const names = [...Object.keys(builtins), ...Object.keys(configured).filter((name) => !(name in builtins))];
  for (const name of names) {
    const base = builtins[name];
    const override = configured[name] ?? {};
    const description = override.description ?? base?.description ?? '';
    const access = override.access ?? base?.access ?? 'read-only';
    const prompt = override.prompt ?? base?.prompt;
    const model = override.model ?? base?.model;
    const temperature = override.temperature ?? base?.temperature;
    const maxTurns = override.maxTurns ?? base?.maxTurns;
    agents[name] = {
      name,
      description,
      access,
      ...(prompt === undefined ? {} : { prompt }),
      ...(model === undefined ? {} : { model }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      visible: override.visible ?? true,
      ...(override.color === undefined ? {} : { color: override.color }),
      builtin: base !== undefined,
    };
  }
  return agents;
}
