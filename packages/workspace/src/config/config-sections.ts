import { AllowedHostError, parseAllowedHost } from '@boxagnts/api';
import { z } from 'zod';
import { SITE_NAME_PATTERN } from '../sites/site-name.js';
import { keyReferenceSchema } from './key-reference.js';

// The schemas of the config file's sections. Strict: users write these, so an unknown key is an error.

/** Names used as keys (provider ids, agent names, MCP server names, presets, tokens). */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** Keys that name parts of every JavaScript object; a config holding one could reach an object's prototype. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const RESERVED_MESSAGE = 'is a reserved JavaScript name (__proto__, constructor, prototype); pick another name';
/** A record key of the config: any string but a {@link RESERVED_KEYS} one. */
const recordKey = z.string().refine((key) => !RESERVED_KEYS.has(key), RESERVED_MESSAGE);
/**
 * A record of the config that refuses an own `__proto__` key (zod's record drops it silently, as
 * `JSON.parse` keeps it as a plain key) as well as the other reserved names (through `key`).
 */
function guardedRecord<Key extends z.core.$ZodRecordKey, Value extends z.ZodType>(key: Key, value: Value) {
  return z.preprocess(
    (input, context) => {
      if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
        context.addIssue({ code: 'custom', path: ['__proto__'], message: RESERVED_MESSAGE, input });
      }
      return input;
    },
    z.record(key, value),
  );
}
const name = (what: string) =>
  z
    .string()
    .regex(NAME_PATTERN, `${what} names must be 1-64 lowercase letters, digits, "_" or "-"`)
    .refine((key) => !RESERVED_KEYS.has(key), RESERVED_MESSAGE);

/** `provider/model` or a bare model name known to the catalogue. */
export const modelReferenceSchema = z
  .string()
  .trim()
  .min(1, 'must name a model, e.g. "anthropic/claude-sonnet-4-6"')
  .regex(/^[^\s]+$/, 'must not contain spaces (write "provider/model")');

const milliseconds = z.number().int().positive().max(86_400_000, 'must be at most 86,400,000 (one day)');
const nonEmptyStrings = z.array(z.string().trim().min(1, 'must not be empty'));
const stringOrKey = z.union([z.string(), keyReferenceSchema], {
  error: 'must be a string or a key reference { "env": "<VARIABLE>" } / { "secret": "<name>" }',
});

/** One provider's overrides over its built-in row. */
export const providerSchema = z.strictObject({
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  apiKey: keyReferenceSchema.optional(),
  region: z.string().trim().min(1).optional(),
  /** Values for `{placeholder}`s of the row's base URL (Azure resource, Vertex project, ...). */
  parameters: guardedRecord(recordKey, z.string()).optional(),
});
/** `providers`: overrides by provider id. */
export const providersSchema = guardedRecord(name('provider'), providerSchema);

/** Models for particular jobs; each falls back to the default model. */
export const modelsSchema = z.strictObject({
  small: modelReferenceSchema.optional(),
  compaction: modelReferenceSchema.optional(),
  title: modelReferenceSchema.optional(),
  executor: modelReferenceSchema.optional(),
  fallback: z.array(modelReferenceSchema).optional(),
});

/** The access levels of agents (see `accessAllows` of @boxagnts/tools). */
export const ACCESS_LEVELS = ['full', 'read-only', 'search-only'] as const;
/** Terminal colour names agents may use; `#rrggbb` is accepted too. */
export const AGENT_COLORS = ['red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'gray'] as const;

/** One agent of `agents`: a built-in's overrides or a new agent. */
export const agentSchema = z.strictObject({
  description: z.string().trim().min(1, 'must say what the agent is for').optional(),
  model: modelReferenceSchema.optional(),
  temperature: z.number().min(0, 'must be between 0 and 2').max(2, 'must be between 0 and 2').optional(),
  prompt: z.string().optional(),
  access: z.enum(ACCESS_LEVELS, { error: `must be one of ${ACCESS_LEVELS.join(', ')}` }).optional(),
  visible: z.boolean().optional(),
  maxTurns: z.number().int().positive().max(10_000, 'must be at most 10,000').optional(),
  color: z
    .string()
    .regex(
      new RegExp(`^(#[0-9a-fA-F]{6}|${AGENT_COLORS.join('|')})$`),
      `must be #rrggbb or one of ${AGENT_COLORS.join(', ')}`,
    )
    .optional(),
});
/** `agents`: by agent name. */
export const agentsSchema = guardedRecord(name('agent'), agentSchema);

/** Manager/executor presets: a strong model plans, executors on `executorModel` do the work. */
export const managedAgentSchema = z.strictObject({
  description: z.string().optional(),
  managerModel: modelReferenceSchema.optional(),
  executorModel: modelReferenceSchema,
  maxExecutorTurns: z.number().int().positive().max(10_000).optional(),
  maxConcurrentExecutors: z.number().int().positive().max(64, 'must be at most 64').optional(),
  isolation: z.enum(['none', 'worktree'], { error: 'must be "none" or "worktree"' }).optional(),
});
/** `managedAgents`: presets by name. */
export const managedAgentsSchema = guardedRecord(name('preset'), managedAgentSchema);

/** The permission modes of tools-manager, in order of how much runs without asking. */
export const PERMISSION_MODES = ['plan', 'default', 'accept-edits', 'bypass'] as const;
/** `permissions`: the mode and the allow/ask/deny rules of tools-manager. */
export const permissionsSchema = z.strictObject({
  mode: z.enum(PERMISSION_MODES, { error: `must be one of ${PERMISSION_MODES.join(', ')}` }).optional(),
  allow: nonEmptyStrings.optional(),
  ask: nonEmptyStrings.optional(),
  deny: nonEmptyStrings.optional(),
});

/** The first problem of an allowlist entry (the parser web_fetch and the sandbox use), or undefined. */
function allowedHostProblem(entry: string): string | undefined {
  try {
    parseAllowedHost(entry);
    return undefined;
  } catch (error) {
    return error instanceof AllowedHostError ? error.message : String(error);
  }
}
/** `network`: hosts the web tools may reach, in the one allowlist format of `parseAllowedHost`. */
export const networkSchema = z.strictObject({
  allowedHosts: z
    .array(
      z.string().superRefine((entry, context) => {
        const problem = allowedHostProblem(entry);
        if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
      }),
    )
    .optional(),
});

/** One MCP server of `mcpServers` (as tools-manager's config, the name being the key). */
export const mcpServerSchema = z.strictObject({
  transport: z.discriminatedUnion(
    'type',
    [
      z.strictObject({
        type: z.literal('stdio'),
        command: z.string().trim().min(1, 'must name the program to run'),
        args: z.array(z.string()).optional(),
        env: guardedRecord(recordKey, stringOrKey).optional(),
        cwd: z.string().min(1).optional(),
      }),
      z.strictObject({
        type: z.literal('http'),
        url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
        headers: guardedRecord(recordKey, stringOrKey).optional(),
      }),
    ],
    { error: 'must be { "type": "stdio", "command": ... } or { "type": "http", "url": ... }' },
  ),
  allow: nonEmptyStrings.optional(),
  deny: nonEmptyStrings.optional(),
  defer: z.boolean().optional(),
  timeoutMs: milliseconds.optional(),
  connectTimeoutMs: milliseconds.optional(),
  maxReconnects: z.number().int().min(0).max(20, 'must be at most 20').optional(),
});
/** `mcpServers`: by server name. */
export const mcpServersSchema = guardedRecord(
  z
    .string()
    .regex(/^[a-zA-Z0-9][a-zA-Z0-9-]{0,31}$/, 'MCP server names must be 1-32 letters, digits or "-"')
    .refine((key) => !RESERVED_KEYS.has(key), RESERVED_MESSAGE),
  mcpServerSchema,
);

/** `skills`: where skills are found. */
export const skillsSchema = z.strictObject({
  /** Folders searched for `<name>/SKILL.md`, relative to the workspace. */
  folders: z.array(z.string().trim().min(1)).optional(),
});

const commandHookSchema = z.strictObject({
  matcher: z.string().optional(),
  command: z.string().trim().min(1, 'must be the command to run'),
  timeoutMs: milliseconds.optional(),
  cwd: z.string().optional(),
  env: guardedRecord(recordKey, stringOrKey).optional(),
});
/** `hooks`: command hooks run before and after tool calls. */
export const hooksSchema = z.strictObject({
  beforeTool: z.array(commandHookSchema).optional(),
  afterTool: z.array(commandHookSchema).optional(),
});

/** `gateway`: where the HTTP server listens and which tokens it accepts. */
export const gatewaySchema = z.strictObject({
  host: z.string().trim().min(1).optional(),
  port: z.number().int().min(0).max(65_535, 'must be a TCP port (0-65535)').optional(),
  /** Bearer tokens that may use the gateway's API, by name; the values live in the secrets file. */
  tokens: guardedRecord(name('token'), keyReferenceSchema).optional(),
  /**
   * OpenTelemetry spans for runs, model calls and tool calls (GenAI conventions), made with the tracer of
   * the globally registered OpenTelemetry SDK. Off by default.
   */
  telemetry: z.boolean().optional(),
  /** Questions a run asks the person watching it over HTTP (permission `ask` rules, `ask_user_question`). */
  questions: z
    .strictObject({
      /** How long a question waits for an answer before it is answered by timeout; default 600,000 ms (10 minutes). */
      timeoutMs: z
        .number()
        .int()
        .min(1_000, 'must be at least 1000 ms')
        .max(86_400_000, 'must be at most 86400000 ms (a day)')
        .optional(),
    })
    .optional(),
  /** Static sites, served on an origin of their own (a second listener), one host name per site. */
  sites: z
    .strictObject({
      /** Start the sites listener with the gateway; default true. */
      enabled: z.boolean().optional(),
      /** The address it binds; default `gateway.host`. */
      host: z.string().trim().min(1).optional(),
      /** Its port; default one above `gateway.port` (7434), any free one when the API port is 0. */
      port: z.number().int().min(0).max(65_535, 'must be a TCP port (0-65535)').optional(),
      /** Site `<name>` answers at `http://<name>.<domain>:<port>/`; default `localhost`. */
      domain: z
        .string()
        .trim()
        .toLowerCase()
        .regex(
          /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/,
          'must be a host name such as "localhost" or "sites.example.com"',
        )
        .optional(),
      /** The folder holding one sub-folder per site, relative to the workspace; default `root/sites`. */
      folder: z.string().trim().min(1).optional(),
      /** Sites whose unknown paths answer with their `index.html` (single-page apps). */
      spa: z
        .array(z.string().regex(SITE_NAME_PATTERN, 'site names are DNS labels: lowercase letters, digits and "-"'))
        .optional(),
      /**
       * Sites served by a `wasi:http` incoming-handler component (such as BoxAgnts'
       * `boxed_static_server_component.wasm`) instead of the built-in static handler, by site name.
       */
      components: guardedRecord(
        z.string().regex(SITE_NAME_PATTERN, 'site names are DNS labels: lowercase letters, digits and "-"'),
        z.strictObject({
          /** The `.wasm` file, relative to the workspace, under its `tools/` or `sites/` folder. */
          component: z.string().trim().min(1, 'must name the component file, e.g. "tools/site-server.wasm"'),
          /** What the component reads through `wasi:config/store`; credentials as key references. */
          config: guardedRecord(recordKey, stringOrKey)
            .superRefine((entries, context) => {
              for (const [key, value] of Object.entries(entries)) {
                if (typeof value === 'string' && /pass|secret|token|api[-_]?key|credential/i.test(key)) {
                  context.addIssue({
                    code: 'custom',
                    path: [key],
                    message:
                      'looks like a credential: store it in the secrets file and write { "secret": "<name>" } (or { "env": "<VARIABLE>" })',
                  });
                }
              }
            })
            .optional(),
          /** How long one request may take, body included; default 30,000 ms (then 504). */
          timeoutMs: milliseconds.optional(),
          /** Cap of the component's linear memory in MiB; default 256. */
          maxMemoryMiB: z.number().int().min(1).max(4096, 'must be at most 4096 (4 GiB)').optional(),
          /** The largest request body passed on; default 1 MiB (then 413). */
          maxRequestBytes: z.number().int().min(0).max(1_073_741_824).optional(),
          /** The largest response body passed back; default 64 MiB (then 502 or a cut connection). */
          maxResponseBytes: z.number().int().min(1).max(4_294_967_296).optional(),
        }),
      ).optional(),
    })
    .optional(),
});

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
/** `cron`: defaults of scheduled jobs. */
export const cronSchema = z.strictObject({
  enabled: z.boolean().optional(),
  timezone: z.string().refine(isTimeZone, 'must be an IANA time zone such as "Europe/Berlin" or "UTC"').optional(),
  timeoutMs: milliseconds.optional(),
});

/** `store`: a SQLite file (default) or a PostgreSQL URL (better a key reference, as it may hold a password). */
export const storeSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('sqlite'), path: z.string().trim().min(1).optional() }),
    z.strictObject({ kind: z.literal('postgres'), url: stringOrKey }),
  ],
  { error: 'must be { "kind": "sqlite", "path"?: ... } or { "kind": "postgres", "url": ... }' },
);
