import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ConfigError, isConfigError } from './config-error.js';
import { DEFAULT_CONFIG_TEXT } from './default-config-text.js';
import { loadConfig, parseConfigText } from './load-config.js';

const FILE = '/ws/boxagnts.json';

/** An env reference (dollar, brace, env:NAME, brace), built so the source holds no template-looking literal. */
const env = (name: string) => `$${'{'}env:${name}}`;

function failure(text: string, env: Record<string, string> = {}): ConfigError {
  try {
    parseConfigText(text, FILE, { env });
  } catch (error) {
    if (isConfigError(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfigText', () => {
  it('fills in every default for an empty object', () => {
    const config = parseConfigText('{}', FILE, { env: {} });
    expect(config.model).toBe('anthropic/claude-sonnet-4-6');
    expect(config.models).toEqual({
      small: config.model,
      compaction: config.model,
      title: config.model,
      executor: config.model,
      fallback: [],
    });
    expect(config.permissions).toEqual({ mode: 'default', allow: [], ask: [], deny: [] });
    expect(config.skills.folders).toEqual(['/ws/skills']);
    expect(config.gateway).toEqual({
      host: '127.0.0.1',
      port: 7433,
      tokens: {},
      telemetry: false,
      questions: { timeoutMs: 600_000 },
      sites: {
        enabled: true,
        host: '127.0.0.1',
        port: undefined,
        domain: 'localhost',
        folder: '/ws/root/sites',
        spa: [],
        components: {},
      },
    });
    expect(config.cron).toEqual({ enabled: true, timezone: 'UTC', timeoutMs: 600_000 });
    expect(config.store).toEqual({ kind: 'sqlite', path: '/ws/.boxagnts/workspace.db' });
    expect(config.defaultAgent).toBe('build');
    expect(config.outputStyle).toBe('default');
  });

  it('reads gateway.questions.timeoutMs and refuses one under a second', () => {
    const config = parseConfigText('{"gateway":{"questions":{"timeoutMs":5000}}}', FILE, { env: {} });
    expect(config.gateway.questions).toEqual({ timeoutMs: 5000 });
    expect(() => parseConfigText('{"gateway":{"questions":{"timeoutMs":10}}}', FILE, { env: {} })).toThrow(
      /gateway\.questions\.timeoutMs.*at least 1000 ms/,
    );
  });

  it('accepts the default config file text', () => {
    const config = parseConfigText(DEFAULT_CONFIG_TEXT, FILE, { env: {} });
    expect(config.providers).toEqual({});
    expect(config.store).toEqual({ kind: 'sqlite', path: '/ws/.boxagnts/workspace.db' });
  });

  it('reads every section of a full config with comments and trailing commas', () => {
    const config = parseConfigText(
      `{
        // default model
        "model": "openai/gpt-5",
        "providers": { "openai": { "apiKey": { "secret": "openai" }, "baseUrl": "https://proxy.example.com/v1", }, },
        "models": { "small": "openai/gpt-5-mini" },
        "agents": {
          "plan": { "model": "openai/o3", "color": "#aabbcc" },
          "reviewer": { "description": "Reviews", "access": "read-only", "temperature": 0.2, "visible": false, "maxTurns": 9 }
        },
        "defaultAgent": "reviewer",
        "managedAgents": { "team": { "executorModel": "openai/gpt-5-mini", "isolation": "worktree" } },
        "permissions": { "mode": "accept-edits", "allow": ["bash(npm test:*)"], "deny": ["bash(rm:*)"] },
        "network": { "allowedHosts": ["api.github.com", "*.example.com"] },
        "mcpServers": { "files": { "transport": { "type": "http", "url": "http://127.0.0.1:3001/mcp", "headers": { "Authorization": { "secret": "mcp" } } } } },
        "skills": { "folders": ["skills", "/opt/skills"] },
        "hooks": { "beforeTool": [{ "matcher": "bash", "command": "./check.sh" }] },
        "outputStyle": "concise",
        "gateway": { "port": 9000, "tokens": { "ci": { "secret": "gateway-ci" } }, "telemetry": true },
        "cron": { "timezone": "Europe/Berlin" },
        "store": { "kind": "postgres", "url": { "env": "DATABASE_URL" } }
      }`,
      FILE,
      { env: {} },
    );
    expect(config.model).toBe('openai/gpt-5');
    expect(config.models.small).toBe('openai/gpt-5-mini');
    expect(config.models.title).toBe('openai/gpt-5-mini');
    expect(config.models.compaction).toBe('openai/gpt-5');
    expect(config.agents.reviewer?.visible).toBe(false);
    expect(config.managedAgents.team?.isolation).toBe('worktree');
    expect(config.permissions.mode).toBe('accept-edits');
    expect(config.network.allowedHosts).toEqual(['api.github.com', '*.example.com']);
    expect(config.skills.folders).toEqual(['/ws/skills', '/opt/skills']);
    expect(config.hooks.beforeTool[0]?.command).toBe('./check.sh');
    expect(config.gateway).toEqual({
      host: '127.0.0.1',
      port: 9000,
      tokens: { ci: { secret: 'gateway-ci' } },
      telemetry: true,
      questions: { timeoutMs: 600_000 },
      sites: {
        enabled: true,
        host: '127.0.0.1',
        port: undefined,
        domain: 'localhost',
        folder: '/ws/root/sites',
        spa: [],
        components: {},
      },
    });
    expect(config.cron.timezone).toBe('Europe/Berlin');
    expect(config.store).toEqual({ kind: 'postgres', url: { env: 'DATABASE_URL' } });
  });

  it('reports a syntax error with its line and column', () => {
    const error = failure('{\n  "model": "a/b"\n  "outputStyle": "concise"\n}');
    expect(error.reason).toBe('syntax');
    expect(error.line).toBe(3);
    expect(error.column).toBe(3);
    expect(error.message).toBe(
      `${FILE}:3:3: a "," is expected here (between two entries). Fix the JSON at this position.`,
    );
  });

  it('refuses a top level that is not an object', () => {
    expect(failure('[1, 2]').message).toContain('must hold one JSON object');
  });

  it('names the field and position of a wrong type', () => {
    const error = failure('{\n  "agents": {\n    "build": { "temperature": "hot" }\n  }\n}');
    expect(error.reason).toBe('schema');
    expect(error.field).toBe('agents.build.temperature');
    expect(error.line).toBe(3);
    expect(error.message).toContain('expected number, received string');
  });

  it('refuses an unknown key with a did-you-mean hint and the allowed keys', () => {
    const error = failure('{\n  "agents": { "build": { "modle": "a/b" } }\n}');
    expect(error.field).toBe('agents.build.modle');
    expect(error.message).toContain('unknown key "modle". Did you mean "model"?');
    expect(error.message).toContain('Allowed keys here: description, model, temperature');
    expect(error.line).toBe(2);
    expect(error.column).toBe(26);
  });

  it('refuses an unknown top-level key', () => {
    const error = failure('{ "outputstyle": "concise" }');
    expect(error.field).toBe('outputstyle');
    expect(error.message).toContain('Did you mean "outputStyle"?');
  });

  it('refuses a raw key where a key reference belongs, without echoing it', () => {
    const key = 'sk-ant-api03-rawkeyrawkeyrawkey1234';
    const error = failure(`{ "providers": { "anthropic": { "apiKey": "${key}" } } }`);
    expect(error.reason).toBe('raw-secret');
    expect(error.field).toBe('providers.anthropic.apiKey');
    expect(error.message).toContain('Secrets never go in the config');
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('rawkeyraw');
  });

  it('refuses a short non-vendor string as apiKey with a hint to use a reference', () => {
    const error = failure('{ "providers": { "local": { "apiKey": "hunter2" } } }');
    expect(error.field).toBe('providers.local.apiKey');
    expect(error.message).toContain('must be a key reference, not the key itself');
    expect(error.message).not.toContain('hunter2');
  });

  it('refuses key-shaped text in any field and URLs with passwords', () => {
    expect(failure('{ "permissions": { "allow": ["bash(curl -H \'Bearer abcdefghijklmnop\')"] } }').field).toBe(
      'permissions.allow[0]',
    );
    const url = failure('{ "store": { "kind": "postgres", "url": "postgres://me:pa55word@db/app" } }');
    expect(url.reason).toBe('raw-secret');
    expect(url.field).toBe('store.url');
    expect(url.message).not.toContain('pa55word');
  });

  it('refuses a credential arriving through an environment variable reference', () => {
    const error = failure(`{ "model": "${env('MODEL')}" }`, { MODEL: 'sk-proj-abcdefghijklmnopqrstu' });
    expect(error.reason).toBe('raw-secret');
    expect(error.message).toContain('receives a credential through an environment variable reference');
    expect(error.message).not.toContain('abcdefghijklmnopqrstu');
  });

  it('substitutes env references everywhere in strings, and a doubled $ keeps one literally', () => {
    const config = parseConfigText(
      `{ "model": "${env('PROVIDER')}/${env('MODEL')}", "hooks": { "beforeTool": [{ "command": "echo $${env('HOME')}" }] } }`,
      FILE,
      { env: { PROVIDER: 'openai', MODEL: 'gpt-5' } },
    );
    expect(config.model).toBe('openai/gpt-5');
    expect(config.hooks.beforeTool[0]?.command).toBe(`echo ${env('HOME')}`);
  });

  it('names a missing variable and the field using it', () => {
    const error = failure(`{ "gateway": { "host": "${env('GATEWAY_HOST')}" } }`);
    expect(error.reason).toBe('missing-env');
    expect(error.field).toBe('gateway.host');
    expect(error.message).toContain('environment variable GATEWAY_HOST is not set');
  });

  it('requires description and access for agents that are not built in', () => {
    const error = failure('{ "agents": { "reviewer": { "description": "Reviews" } } }');
    expect(error.field).toBe('agents.reviewer.access');
    expect(error.message).toContain('is required for an agent that is not built in');
  });

  it('checks enums, names, ranges and references between fields', () => {
    expect(failure('{ "permissions": { "mode": "yolo" } }').message).toContain(
      'must be one of plan, default, accept-edits, bypass',
    );
    expect(failure('{ "agents": { "Bad Name": { "description": "x", "access": "full" } } }').message).toContain(
      'agent names must be 1-64 lowercase letters',
    );
    expect(failure('{ "gateway": { "port": 70000 } }').field).toBe('gateway.port');
    expect(failure('{ "cron": { "timezone": "Mars/Base" } }').message).toContain('IANA time zone');
    expect(failure('{ "defaultAgent": "ghost" }').message).toContain('must name an agent: one of build, plan, explore');
    const both = failure('{ "providers": { "openai": { "apiKey": { "env": "A", "secret": "b" } } } }');
    expect(both.field).toBe('providers.openai.apiKey');
    expect(both.message).toContain('must be { "env": "<VARIABLE>" } or { "secret": "<name>" }');
  });
});

describe('loadConfig', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'boxagnts-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file and resolves paths against its folder', async () => {
    const file = join(dir, 'boxagnts.json');
    await writeFile(file, '{ "store": { "kind": "sqlite", "path": "data/app.db" } }');
    const config = await loadConfig(file, { env: {} });
    expect(config.file).toBe(file);
    expect(config.store).toEqual({ kind: 'sqlite', path: join(dir, 'data', 'app.db') });
  });

  it('never falls back to defaults for a missing file', async () => {
    const file = join(dir, 'boxagnts.json');
    await expect(loadConfig(file)).rejects.toMatchObject({ reason: 'io', file });
  });
});
