import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWorkspace } from '../workspace/open-workspace.js';
import { isConfigError } from './config-error.js';
import { configSchema } from './config-schema.js';
import { loadConfig, parseConfigText } from './load-config.js';
import { setConfigValue, updateConfig } from './update-config.js';

/** An env reference (dollar, brace, env:NAME, brace), built so the source holds no template-looking literal. */
const env = (name: string) => `$${'{'}env:${name}}`;

async function configError(work: () => unknown): Promise<Error & { reason: string }> {
  try {
    await work();
  } catch (error) {
    if (isConfigError(error)) return error as Error & { reason: string };
    throw new Error(`expected a ConfigError, got ${inspect(error).slice(0, 300)}`);
  }
  throw new Error('expected a ConfigError, but the call succeeded');
}

const nested = (depth: number, open = '{"a":', close = '}') => `${open.repeat(depth)}1${close.repeat(depth)}`;

describe('hostile boxagnts.json', () => {
  let base: string;
  let file: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'boxagnts-hostile-config-'));
    file = join(base, 'boxagnts.json');
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it.each([
    ['objects', 100_000, '{"a":', '}'],
    ['arrays', 100_000, '[', ']'],
    ['objects just past the limit', 65, '{"a":', '}'],
  ])(
    'refuses %s nested %i deep with a ConfigError in loadConfig, setConfigValue and updateConfig',
    async (_what, depth, open, close) => {
      const text = `{\n  "providers": ${nested(depth, open, close)}\n}\n`;
      await writeFile(file, text);
      for (const work of [
        () => loadConfig(file, { env: {} }),
        () => parseConfigText(text, file, { env: {} }),
        () => setConfigValue(file, ['model'], 'openai/gpt-5', { env: {} }),
        () => updateConfig(file, (draft) => ({ ...draft, model: 'openai/gpt-5' }), { env: {} }),
      ]) {
        const error = await configError(work);
        expect(error.reason).toBe('syntax');
        expect(error.message).toMatch(/boxagnts\.json:2:\d+: objects and arrays are nested more than 64 levels/);
        expect(error.message).toContain('Remove the extra nesting');
      }
      expect(await readFile(file, 'utf8')).toBe(text);
    },
  );

  it('refuses a nested value passed to setConfigValue, leaving the file as it was', async () => {
    await writeFile(file, '{}\n');
    let deep: Record<string, unknown> = {};
    for (let index = 0; index < 100_000; index++) deep = { a: deep };
    const error = await configError(() => setConfigValue(file, ['mcpServers'], deep as never, { env: {} }));
    expect(error.message).toContain('nested more than 64 levels');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect((await configError(() => setConfigValue(file, ['x'], cyclic as never, { env: {} }))).reason).toBe('schema');
    expect(await readFile(file, 'utf8')).toBe('{}\n');
  });

  it('makes openWorkspace and reload refuse a deeply nested file with a ConfigError', async () => {
    const dir = join(base, 'ws');
    const workspace = await openWorkspace(dir, { env: {}, home: join(base, 'home') });
    try {
      await writeFile(join(dir, 'boxagnts.json'), `{ "agents": ${nested(50_000)} }`);
      const reload = await configError(() => workspace.reload());
      expect(reload.reason).toBe('syntax');
      expect(workspace.config.model).toBe('anthropic/claude-sonnet-4-6');
      expect((await configError(() => workspace.setConfigValue(['model'], 'x/y'))).reason).toBe('syntax');
    } finally {
      await workspace.close();
    }
    expect((await configError(() => openWorkspace(dir, { env: {}, home: join(base, 'home') }))).reason).toBe('syntax');
  });

  it.each([
    ['__proto__ at the top', '{ "__proto__": { "model": "evil/model" } }', '__proto__'],
    ['__proto__ in a section', '{ "gateway": { "__proto__": { "port": 1 } } }', 'gateway.__proto__'],
    [
      'constructor as an agent',
      '{ "agents": { "constructor": { "description": "d", "access": "full" } } }',
      'agents.constructor',
    ],
    ['prototype as a provider', '{ "providers": { "prototype": {} } }', 'providers.prototype'],
    [
      '__proto__ in MCP env',
      '{ "mcpServers": { "m": { "transport": { "type": "stdio", "command": "c", "env": { "__proto__": "x" } } } } }',
      'mcpServers.m.transport.env.__proto__',
    ],
  ])('refuses %s', async (_what, text, field) => {
    const error = await configError(() => parseConfigText(text, file, { env: {} }));
    expect(error.reason).toBe('schema');
    expect(error.message).toContain(`${field}:`);
    expect(error.message).toContain('reserved JavaScript name');
    expect(({} as Record<string, unknown>).model).toBeUndefined();
  });

  it('refuses reserved names in the exported schema too, for objects built in code', () => {
    const agents = Object.defineProperty({}, 'constructor', {
      value: { description: 'd', access: 'full' },
      enumerable: true,
    });
    expect(configSchema.safeParse({ agents }).success).toBe(false);
    expect(configSchema.safeParse(JSON.parse('{ "providers": { "__proto__": {} } }')).success).toBe(false);
    expect(configSchema.safeParse({ agents: { reviewer: { description: 'd', access: 'full' } } }).success).toBe(true);
  });

  it('never prints a value that came through an env reference, however the error is shown', async () => {
    const privateValue = 'internal-style-hunter2';
    const dir = join(base, 'ws2');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'boxagnts.json'), `{ "outputStyle": "${env('STYLE')}" }`);
    const error = await configError(() =>
      openWorkspace(dir, { env: { STYLE: privateValue }, home: join(base, 'home') }),
    );
    expect(error.message).toContain(`no output style "${env('STYLE')}"`);
    for (const shown of [error.message, String(error), inspect(error, { depth: 10 }), JSON.stringify(error)]) {
      expect(shown).not.toContain(privateValue);
    }
    for (const [text, name] of [
      [`{ "permissions": { "mode": "${env('MODE')}" } }`, 'MODE'],
      [`{ "gateway": { "port": "${env('PORT')}" } }`, 'PORT'],
      [`{ "cron": { "timezone": "${env('TZ_NAME')}" } }`, 'TZ_NAME'],
      [`{ "model": "${env('MODEL')}" }`, 'MODEL'],
    ] as const) {
      const refused = await configError(() => parseConfigText(text, file, { env: { [name]: `${privateValue} x` } }));
      expect(inspect(refused, { depth: 10 })).not.toContain(privateValue);
    }
  });
});
