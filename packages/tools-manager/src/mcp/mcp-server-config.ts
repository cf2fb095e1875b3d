import { z } from 'zod';
import { McpConfigError } from './mcp-errors.js';

/** Starts the server as a child process and talks JSON-RPC over its stdin/stdout. */
export interface McpStdioTransportConfig {
  type: 'stdio';
  /** The program to run (looked up on PATH), e.g. `node` or `/usr/local/bin/my-server`. */
  command: string;
  args?: string[];
  /**
   * Extra environment variables. The child gets only HOME, LOGNAME, PATH, SHELL, TERM and USER from
   * this process (the SDK's safe default) plus these, so secrets in the host's environment stay out.
   */
  env?: Record<string, string>;
  cwd?: string;
}

/** Connects to a running server over Streamable HTTP (one session per connection). */
export interface McpHttpTransportConfig {
  type: 'http';
  /** The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string;
  /** Sent with every request (e.g. `Authorization`); never logged or shown in errors. */
  headers?: Record<string, string>;
}

/**
 * One MCP server as a tool source. Users write this (config files), so it is validated strictly by
 * {@link parseMcpServerConfig}.
 */
export interface McpServerConfig {
  /** Short name used in tool names (`mcp__<name>__<tool>`): letters, digits, `_` and `-`, no `__`. */
  name: string;
  transport: McpStdioTransportConfig | McpHttpTransportConfig;
  /** Server tool names (`*` matches any run of characters) to offer; default: all. */
  allow?: string[];
  /** Server tool names to leave out; wins over `allow`. */
  deny?: string[];
  /** Mark the server's tools deferred: listed by tool_search, loaded only on `select:`. */
  defer?: boolean;
  /** Longest one call may take, in ms (default 60,000). */
  timeoutMs?: number;
  /** Longest starting and initializing the server may take, in ms (default 30,000). */
  connectTimeoutMs?: number;
  /** Reconnect attempts after the connection drops, per call that finds it down (default 3). */
  maxReconnects?: number;
}

/** A validated config with every default filled in. */
export interface ResolvedMcpServerConfig extends McpServerConfig {
  timeoutMs: number;
  connectTimeoutMs: number;
  maxReconnects: number;
}

/** Defaults of {@link McpServerConfig}. */
export const MCP_SERVER_DEFAULTS = { timeoutMs: 60_000, connectTimeoutMs: 30_000, maxReconnects: 3 } as const;

const SERVER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,31}$/;
const stringMap = z.record(z.string(), z.string());
const patterns = z.array(z.string().min(1, 'must not be empty'));
const milliseconds = z.number().int().positive().max(86_400_000, 'must be at most 86,400,000 (one day)');

const configSchema = z.strictObject({
  name: z
    .string()
    .regex(SERVER_NAME, 'must be 1-32 letters, digits, "_" or "-", starting with a letter or digit')
    .refine((name) => !name.includes('__'), 'must not contain "__" (it separates the parts of tool names)'),
  transport: z.discriminatedUnion(
    'type',
    [
      z.strictObject({
        type: z.literal('stdio'),
        command: z.string().trim().min(1, 'must name the program to run'),
        args: z.array(z.string()).optional(),
        env: stringMap.optional(),
        cwd: z.string().min(1).optional(),
      }),
      z.strictObject({
        type: z.literal('http'),
        url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
        headers: stringMap.optional(),
      }),
    ],
    { error: 'must be { type: "stdio", command } or { type: "http", url }' },
  ),
  allow: patterns.optional(),
  deny: patterns.optional(),
  defer: z.boolean().optional(),
  timeoutMs: milliseconds.optional(),
  connectTimeoutMs: milliseconds.optional(),
  maxReconnects: z.number().int().min(0).max(20, 'must be at most 20').optional(),
});

function serverNameOf(raw: unknown): string {
  if (typeof raw === 'object' && raw !== null && typeof (raw as { name?: unknown }).name === 'string') {
    return (raw as { name: string }).name;
  }
  return 'unnamed';
}

/**
 * Validates a server config (from code or a config file) and fills in the defaults. Throws a
 * {@link McpConfigError} naming the server and the bad field.
 *
 * @example
 * const config = parseMcpServerConfig({ name: 'files', transport: { type: 'stdio', command: 'mcp-files' } });
 */
export function parseMcpServerConfig(raw: unknown): ResolvedMcpServerConfig {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined || issue.path.length === 0 ? '(config)' : issue.path.join('.');
    const server = serverNameOf(raw);
    const detail = issue?.code === 'unrecognized_keys' ? `has unknown keys ${issue.keys.join(', ')}` : issue?.message;
    throw new McpConfigError({
      server,
      field,
      message: `MCP server "${server}": ${field} ${detail ?? 'is invalid'}. Fix this field in the server's configuration.`,
    });
  }
  const config = parsed.data as McpServerConfig;
  return {
    ...config,
    timeoutMs: config.timeoutMs ?? MCP_SERVER_DEFAULTS.timeoutMs,
    connectTimeoutMs: config.connectTimeoutMs ?? MCP_SERVER_DEFAULTS.connectTimeoutMs,
    maxReconnects: config.maxReconnects ?? MCP_SERVER_DEFAULTS.maxReconnects,
  };
}
