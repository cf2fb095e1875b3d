/** One provider and where its key comes from: never the key. */
export interface ProviderJson {
  id: string;
  name: string;
  adapter: string;
  configured: boolean;
  /** `option` and `file`: set in the workspace; `environment`: from an environment variable; absent: missing. */
  credentialSource?: 'option' | 'environment' | 'file' | 'not-needed';
  credentialVariables: string[];
  missing: string[];
  defaultModel?: string;
  docsURL: string;
}

/** `GET /providers`. */
export interface ProviderListJson {
  providers: ProviderJson[];
}

/** Prices in USD per million tokens. */
export interface ModelPriceJson {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  [field: string]: unknown;
}

/** One catalogue model of a configured provider. */
export interface ModelJson {
  id: string;
  provider: string;
  name: string;
  contextWindow?: number;
  maxOutput?: number;
  price?: ModelPriceJson;
  reasoning?: boolean;
  toolCall?: boolean;
}

/** `GET /models`. */
export interface ModelListJson {
  defaultModel: string;
  defaultPrice?: ModelPriceJson;
  models: ModelJson[];
}

/** One MCP server's connection state. */
export interface McpServerJson {
  server: string;
  transport: 'stdio' | 'http';
  state: 'connecting' | 'connected' | 'reconnecting' | 'failed' | 'closed' | (string & {});
  pid?: number;
  serverInfo?: { name: string; version: string };
  toolCount: number;
  reconnects: number;
  failedAttempts: number;
  lastError?: string;
  sessionId?: string;
  unsupportedTools: string[];
  refusedTools: { name: string; reason: string }[];
  /** The end of what the server process wrote to stderr (stdio). */
  stderrTail: string;
}

/** `GET /mcp-servers`. */
export interface McpServerListJson {
  servers: McpServerJson[];
}

/** The permission modes. */
export type PermissionModeJson = 'plan' | 'default' | 'accept-edits' | 'bypass';

/** `GET /settings/permissions` (and the answer of `PATCH`): the config's mode and rules (defaults filled in). */
export interface PermissionsJson {
  mode: PermissionModeJson;
  allow: string[];
  ask: string[];
  deny: string[];
}

/** The body of `PATCH /settings/permissions`: each field given replaces the config's. */
export interface PermissionsPatchJson {
  mode?: PermissionModeJson;
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

/** `GET /settings/agents-md` (and the answer of `PUT`): the workspace's own AGENTS.md. */
export interface AgentsMdJson {
  /** Relative to the workspace. */
  path: string;
  /** '' when the file does not exist. */
  content: string;
  exists: boolean;
  /** Largest file the gateway writes. */
  maxBytes: number;
  updatedAt?: number;
}

/** One output style. */
export interface OutputStyleJson {
  name: string;
  description: string;
  prompt: string;
  /** Shipped with the package (read-only; a workspace file of the same name replaces it). */
  builtin: boolean;
  /** The workspace file (relative to the workspace) when it is one. */
  file?: string;
  /** The style the config's `outputStyle` selects. */
  selected: boolean;
}

/** `GET /settings/output-styles`. */
export interface OutputStyleListJson {
  selected: string;
  styles: OutputStyleJson[];
}

/** The body of `PUT /settings/output-styles/:name`. */
export interface OutputStyleInputJson {
  description?: string;
  prompt: string;
}

/** A gateway token as listed: its name and dates, never the token or its hash. */
export interface TokenJson {
  name: string;
  createdAt: number;
  revokedAt?: number;
  lastUsedAt?: number;
}

/** `GET /tokens`. */
export interface TokenListJson {
  tokens: TokenJson[];
}

/** `POST /tokens`: the token itself, shown this once. */
export interface CreatedTokenJson {
  name: string;
  token: string;
  createdAt: number;
}
