/** An agent definition, as `GET /agents` sends it. */
export interface AgentJson {
  name: string;
  description: string;
  /** Which tools the agent gets: `full`, `read-only` or `search-only`. */
  access: string;
  /** `provider/model` or a bare model id; absent: the workspace's default model. */
  model?: string;
  prompt?: string;
  temperature?: number;
  maxTurns?: number;
  /** Shown in agent pickers (hidden agents still run as sub-agents). */
  visible: boolean;
  /** A terminal colour name or `#rrggbb`. */
  color?: string;
  /** build, plan and explore (possibly with configured overrides). */
  builtin: boolean;
}

/** `GET /agents`. */
export interface AgentListJson {
  defaultAgent: string;
  agents: AgentJson[];
}

/** One skill argument. */
export interface SkillArgumentJson {
  name: string;
  description?: string;
  required: boolean;
  default?: string;
}

/** One skill found in the skill folders. */
export interface SkillJson {
  name: string;
  description: string;
  whenToUse?: string;
  allowedTools: string[];
  args: SkillArgumentJson[];
}

/** `GET /skills`: the skills found and what was wrong with the others (clashes, bad front matter). */
export interface SkillListJson {
  skills: SkillJson[];
  warnings: { message: string }[];
}

/** Where a tool comes from: a built-in (native) tool, a sandboxed WebAssembly component, an MCP server, a plugin, or a custom source. */
export type ToolOrigin = 'built-in' | 'component' | 'mcp' | 'plugin' | 'custom';

/** One tool of an agent's tool set. */
export interface ToolJson {
  name: string;
  description: string;
  permission: string;
  /** Given to the model now (false: deferred until `tool_search` selects it). */
  loaded: boolean;
  origin: ToolOrigin;
  /** The source's name: `native`, `sandbox`, `mcp:<server>`, `plugin:<name>`. */
  source: string;
}

/** `GET /tools?agent=`. */
export interface ToolListJson {
  agent: string;
  tools: ToolJson[];
}
