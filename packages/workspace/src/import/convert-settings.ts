import { getDefaultProviderRegistry, parseAllowedHost } from '@boxagnts/api';
import { BUILTIN_AGENTS } from '@boxagnts/query';
import type { JsonValue } from '../config/update-config.js';
import { isRecord, safeEntries } from './read-source.js';

/** Where a BoxAgnts provider id lands here: the row id, and the region its alias presets. */
export interface ProviderIdMapping {
  id: string;
  region?: string;
}

/**
 * The id of this project's provider row for a BoxAgnts provider id, through the provider registry
 * of @boxagnts/api and its aliases (`together-ai` -> `together`, `zai` -> `zhipu` in its coding
 * region); undefined for an id no row or alias knows.
 */
export function mapBoxAgntsProviderId(boxagntsId: string): ProviderIdMapping | undefined {
  const registry = getDefaultProviderRegistry();
  const id = registry.resolveId(boxagntsId);
  if (id === undefined) return undefined;
  const alias = id === boxagntsId ? undefined : registry.aliases().find((entry) => entry.alias === boxagntsId);
  return alias?.region === undefined ? { id } : { id, region: alias.region };
}

/** A `provider/model` reference with its provider id mapped (a bare model name stays as it is). */
export function mapModelReference(model: string): string {
  const slash = model.indexOf('/');
  if (slash <= 0) return model;
  const mapped = mapBoxAgntsProviderId(model.slice(0, slash));
  return mapped === undefined ? model : `${mapped.id}${model.slice(slash)}`;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** BoxAgnts' `${VAR}` (and its settings' `{env:VAR}`) as this config's `${env:VAR}`; the variables named. */
export function convertEnvReferences(value: string, variables: Set<string>): string {
  return value.replace(
    /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}|\$?\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g,
    (match, ours, theirs) => {
      const name = (ours ?? theirs) as string;
      // A bare `{NAME}` without `$` or `env:` is text, not a reference.
      if (ours === undefined && !match.startsWith('$') && !match.startsWith('{env:')) return match;
      variables.add(name);
      return `\${env:${name}}`;
    },
  );
}

/** The whole-value reference `${VAR}` as a key reference `{ "env": "VAR" }` (safe for credentials), else a string. */
function envOrText(value: string, variables: Set<string>): JsonValue {
  const whole =
    /^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value.trim()) ??
    /^\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value.trim());
  if (whole?.[1] !== undefined && ENV_NAME.test(whole[1])) {
    variables.add(whole[1]);
    return { env: whole[1] };
  }
  return convertEnvReferences(value, variables);
}

/** A credential found in BoxAgnts' settings, to go into the secrets file. */
export interface ImportedSecret {
  name: string;
  value: string;
  /** Where it was found, for the report (never the value). */
  from: string;
}

/** One setting of BoxAgnts applied to a config draft (the parsed `boxagnts.json`). */
export interface SettingsEdit {
  /** The BoxAgnts setting, for the report. */
  label: string;
  apply(draft: Record<string, JsonValue>): void;
}

/** What BoxAgnts' `settings.json` becomes. */
export interface SettingsPlan {
  /** The settings, one edit each: one the config refuses is left out alone. */
  edits: SettingsEdit[];
  /** Literal credentials found in MCP `env`/`headers`, moved into the secrets file. */
  secrets: ImportedSecret[];
  /** Environment variables the imported config refers to. */
  variables: string[];
  /** `append_system_prompt`: added to the workspace's AGENTS.md (it applies to every agent). */
  appendSystemPrompt: string | undefined;
  /** The output style selected, when it is not built in here. */
  outputStyle: string | undefined;
  /** What was mapped loosely or left out, for the report. */
  notes: string[];
}

const PERMISSION_MODES: Record<string, string> = {
  default: 'default',
  acceptEdits: 'accept-edits',
  bypassPermissions: 'bypass',
  plan: 'plan',
};
const OUR_STYLES = new Set(['default', 'concise', 'explanatory']);
const CREDENTIAL_SHAPE = /^(sk-|sk_|ghp_|gho_|github_pat_|xox[abp]-|AIza|xai-|Bearer\s|eyJ)/;
const MCP_NAME = /^[a-zA-Z0-9][a-zA-Z0-9-]{0,31}$/;
const AGENT_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** Names the config refuses anywhere (they would reach an object's prototype). */
const RESERVED: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function mcpName(name: string, taken: Set<string>): string | undefined {
  let candidate = name
    .replace(/[^a-zA-Z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  if (!MCP_NAME.test(candidate) || RESERVED.has(candidate)) return undefined;
  for (let suffix = 2; taken.has(candidate); suffix += 1) candidate = `${candidate.slice(0, 28)}-${suffix}`;
  taken.add(candidate);
  return candidate;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '')
    : [];
}

function union(existing: JsonValue | undefined, added: readonly string[]): string[] {
  const list = Array.isArray(existing) ? existing.filter((entry): entry is string => typeof entry === 'string') : [];
  for (const entry of added) if (!list.includes(entry)) list.push(entry);
  return list;
}

function section(draft: Record<string, JsonValue>, key: string): Record<string, JsonValue> {
  const current = draft[key];
  if (isRecord(current)) return current as Record<string, JsonValue>;
  const created: Record<string, JsonValue> = {};
  draft[key] = created;
  return created;
}

/**
 * Maps BoxAgnts' `settings.json` (`{config: {model, provider_configs, mcp_servers,
 * allowed_outbound_hosts, output_style, custom_system_prompt, append_system_prompt,
 * permission_mode, allowed_tools, disallowed_tools, agents}}`) onto this project's config.
 */
export function planSettings(settings: unknown): SettingsPlan {
  const notes: string[] = [];
  const secrets: ImportedSecret[] = [];
  const variables = new Set<string>();
  const config = isRecord(settings) && isRecord(settings.config) ? settings.config : isRecord(settings) ? settings : {};
  const edits: SettingsEdit[] = [];

  if (typeof config.model === 'string' && config.model.trim() !== '' && !/\s/.test(config.model.trim())) {
    const model = mapModelReference(config.model.trim());
    if (model !== config.model) notes.push(`model ${config.model} is ${model} here`);
    edits.push({
      label: 'model',
      apply: (draft) => {
        draft.model = model;
      },
    });
  }

  if (isRecord(config.provider_configs)) {
    for (const [key, provider] of safeEntries(config.provider_configs)) {
      if (!isRecord(provider)) continue;
      const boxagntsId = typeof provider.id === 'string' && provider.id !== '' ? provider.id : key;
      if (provider.enabled === false) {
        notes.push(`provider ${boxagntsId} is disabled in BoxAgnts: left out`);
        continue;
      }
      const mapped = mapBoxAgntsProviderId(boxagntsId);
      if (mapped === undefined) {
        notes.push(
          `provider ${boxagntsId} is unknown here: left out (register a row for it, or use openai-compatible)`,
        );
        continue;
      }
      const entry: Record<string, JsonValue> = {};
      const base = typeof provider.api_base === 'string' ? provider.api_base.trim() : '';
      if (base !== '') {
        if (/^https?:\/\/[^\s]+$/.test(base) && URL.canParse(base)) entry.baseUrl = base;
        else
          notes.push(
            `provider ${boxagntsId}: api_base ${JSON.stringify(base.slice(0, 100))} is not an http(s) URL: left out`,
          );
      }
      if (mapped.region !== undefined && entry.baseUrl === undefined) entry.region = mapped.region;
      if (mapped.id !== boxagntsId) notes.push(`provider ${boxagntsId} is ${mapped.id} here`);
      if (Array.isArray(provider.models) && provider.models.length > 0) {
        notes.push(
          `provider ${boxagntsId}: its model list is not imported (the model catalogue of @boxagnts/api is used)`,
        );
      }
      if (Object.keys(entry).length === 0) continue;
      edits.push({
        label: `provider ${boxagntsId}`,
        apply: (draft) => {
          const providers = section(draft, 'providers');
          const current = isRecord(providers[mapped.id]) ? (providers[mapped.id] as Record<string, JsonValue>) : {};
          providers[mapped.id] = { ...current, ...entry };
        },
      });
    }
  }

  if (Array.isArray(config.mcp_servers)) {
    const taken = new Set<string>();
    for (const server of config.mcp_servers) {
      if (!isRecord(server) || typeof server.name !== 'string') continue;
      const name = mcpName(server.name, taken);
      if (name === undefined) {
        notes.push(`MCP server ${JSON.stringify(server.name.slice(0, 64))} has no usable name: left out`);
        continue;
      }
      if (name !== server.name) notes.push(`MCP server ${server.name} is named ${name} here`);
      const values = (record: unknown, what: string): Record<string, JsonValue> => {
        const out: Record<string, JsonValue> = {};
        if (!isRecord(record)) return out;
        for (const [key, value] of safeEntries(record)) {
          if (typeof value !== 'string') continue;
          if (CREDENTIAL_SHAPE.test(value.trim())) {
            const secretName = `mcp-${name}-${key}`.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64);
            secrets.push({ name: secretName, value, from: `mcp_servers.${server.name}.${what}.${key}` });
            out[key] = { secret: secretName };
          } else out[key] = envOrText(value, variables);
        }
        return out;
      };
      const type = typeof server.type === 'string' ? server.type : 'stdio';
      let transport: Record<string, JsonValue>;
      if (type === 'stdio' || (type !== 'http' && type !== 'sse' && typeof server.command === 'string')) {
        if (typeof server.command !== 'string' || server.command.trim() === '') {
          notes.push(`MCP server ${server.name} has no command: left out`);
          continue;
        }
        const env = values(server.env, 'env');
        transport = {
          type: 'stdio',
          command: convertEnvReferences(server.command, variables),
          ...(Array.isArray(server.args)
            ? { args: stringArray(server.args).map((arg) => convertEnvReferences(arg, variables)) }
            : {}),
          ...(Object.keys(env).length === 0 ? {} : { env }),
        };
      } else {
        const url = typeof server.url === 'string' ? convertEnvReferences(server.url, variables) : '';
        if (!/^https?:\/\//.test(url)) {
          notes.push(`MCP server ${server.name} has no http(s) url: left out`);
          continue;
        }
        if (type === 'sse') notes.push(`MCP server ${server.name} used SSE; here it is reached over streamable HTTP`);
        const headers = values(server.headers ?? server.env, server.headers === undefined ? 'env' : 'headers');
        transport = { type: 'http', url, ...(Object.keys(headers).length === 0 ? {} : { headers }) };
      }
      edits.push({
        label: `MCP server ${server.name}`,
        apply: (draft) => {
          section(draft, 'mcpServers')[name] = { transport };
        },
      });
    }
  }

  const hosts: string[] = [];
  for (const host of stringArray(config.allowed_outbound_hosts)) {
    try {
      parseAllowedHost(host);
      hosts.push(host.trim());
    } catch (error) {
      notes.push(`allowed outbound host ${JSON.stringify(host.slice(0, 100))} left out: ${(error as Error).message}`);
    }
  }
  if (hosts.length > 0) {
    edits.push({
      label: 'allowed_outbound_hosts',
      apply: (draft) => {
        const network = section(draft, 'network');
        network.allowedHosts = union(network.allowedHosts, hosts);
      },
    });
  }

  if (typeof config.permission_mode === 'string') {
    const mode = PERMISSION_MODES[config.permission_mode];
    if (mode === undefined)
      notes.push(`permission_mode ${JSON.stringify(config.permission_mode.slice(0, 40))} is unknown: left out`);
    else {
      edits.push({
        label: 'permission_mode',
        apply: (draft) => {
          section(draft, 'permissions').mode = mode;
        },
      });
    }
  }
  const allow = stringArray(config.allowed_tools);
  const deny = stringArray(config.disallowed_tools);
  if (allow.length > 0 || deny.length > 0) {
    edits.push({
      label: 'allowed_tools / disallowed_tools',
      apply: (draft) => {
        const permissions = section(draft, 'permissions');
        if (allow.length > 0) permissions.allow = union(permissions.allow, allow);
        if (deny.length > 0) permissions.deny = union(permissions.deny, deny);
      },
    });
  }

  let outputStyle: string | undefined;
  if (typeof config.output_style === 'string' && config.output_style.trim() !== '') {
    const style = config.output_style.trim().toLowerCase();
    if (/^[a-z0-9][a-z0-9_-]{0,63}$/.test(style)) {
      if (!OUR_STYLES.has(style)) outputStyle = style;
      edits.push({
        label: 'output_style',
        apply: (draft) => {
          draft.outputStyle = style;
        },
      });
    } else notes.push(`output_style ${JSON.stringify(config.output_style.slice(0, 64))} is not a style name: left out`);
  }

  if (isRecord(config.agents)) {
    for (const [name, agent] of safeEntries(config.agents)) {
      if (!isRecord(agent) || !AGENT_NAME.test(name)) {
        notes.push(
          `agent ${JSON.stringify(name.slice(0, 64))} left out (names are lowercase letters, digits, "_", "-")`,
        );
        continue;
      }
      const entry: Record<string, JsonValue> = {};
      if (typeof agent.description === 'string' && agent.description.trim() !== '')
        entry.description = agent.description;
      if (typeof agent.model === 'string' && agent.model.trim() !== '' && !/\s/.test(agent.model))
        entry.model = mapModelReference(agent.model);
      if (typeof agent.temperature === 'number' && agent.temperature >= 0 && agent.temperature <= 2)
        entry.temperature = agent.temperature;
      if (typeof agent.prompt === 'string' && agent.prompt.trim() !== '') entry.prompt = agent.prompt;
      if (agent.access === 'full' || agent.access === 'read-only' || agent.access === 'search-only')
        entry.access = agent.access;
      else if (!(name in BUILTIN_AGENTS)) entry.access = 'full'; // BoxAgnts' default access
      if (typeof agent.visible === 'boolean') entry.visible = agent.visible;
      if (
        typeof agent.max_turns === 'number' &&
        Number.isInteger(agent.max_turns) &&
        agent.max_turns > 0 &&
        agent.max_turns <= 10_000
      ) {
        entry.maxTurns = agent.max_turns;
      }
      if (!(name in BUILTIN_AGENTS) && entry.description === undefined)
        entry.description = `The ${name} agent (imported from BoxAgnts)`;
      edits.push({
        label: `agent ${name}`,
        apply: (draft) => {
          const agents = section(draft, 'agents');
          const current = isRecord(agents[name]) ? (agents[name] as Record<string, JsonValue>) : {};
          agents[name] = { ...current, ...entry };
        },
      });
    }
  }

  if (typeof config.custom_system_prompt === 'string' && config.custom_system_prompt.trim() !== '') {
    const prompt = config.custom_system_prompt;
    notes.push('custom_system_prompt is the prompt of the build agent here (agents.build.prompt)');
    edits.push({
      label: 'custom_system_prompt',
      apply: (draft) => {
        const agents = section(draft, 'agents');
        const build = isRecord(agents.build) ? (agents.build as Record<string, JsonValue>) : {};
        agents.build = { ...build, prompt };
      },
    });
  }
  const append =
    typeof config.append_system_prompt === 'string' && config.append_system_prompt.trim() !== ''
      ? config.append_system_prompt
      : undefined;
  if (append !== undefined)
    notes.push('append_system_prompt is added to the workspace AGENTS.md (every agent reads it)');
  for (const key of ['hooks', 'managed_agents', 'mcp_templates', 'formatter', 'commands'] as const) {
    const value = config[key];
    if (value !== undefined && value !== null && !(isRecord(value) && Object.keys(value).length === 0)) {
      notes.push(`${key} is not imported: add it to boxagnts.json by hand (see its README)`);
    }
  }

  return {
    edits,
    secrets,
    variables: [...variables].sort(),
    appendSystemPrompt: append,
    outputStyle,
    notes,
  };
}
