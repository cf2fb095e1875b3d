import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectFormatting, diffConfig, setConfigValue, updateConfig } from './update-config.js';

/** The env reference to GATEWAY_HOST, built so the source holds no template-looking literal. */
const GATEWAY_REFERENCE = `$${'{'}env:GATEWAY_HOST}`;

const ORIGINAL = `// My workspace
{
    "model": "anthropic/claude-sonnet-4-6", // the default
    /* agents I use */
    "agents": {
        "build": { "temperature": 0.1 }
    },
    "gateway": { "host": "${GATEWAY_REFERENCE}" }
}
`;

describe('updateConfig and setConfigValue', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'boxagnts-update-'));
    file = join(dir, 'boxagnts.json');
    await writeFile(file, ORIGINAL);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const env = { GATEWAY_HOST: '0.0.0.0' };

  it('changes one value and keeps comments, order, indentation and env references', async () => {
    const config = await setConfigValue(file, ['agents', 'build', 'model'], 'openai/gpt-5', { env });
    expect(config.agents.build?.model).toBe('openai/gpt-5');
    expect(config.gateway.host).toBe('0.0.0.0');
    expect(await readFile(file, 'utf8')).toBe(
      ORIGINAL.replace('"build": { "temperature": 0.1 }', '"build": { "temperature": 0.1, "model": "openai/gpt-5" }'),
    );
  });

  it('writes back only what the draft changed', async () => {
    await updateConfig(
      file,
      (draft) => {
        draft.model = 'openai/gpt-5';
        draft.outputStyle = 'concise';
      },
      { env },
    );
    const text = await readFile(file, 'utf8');
    expect(text).toBe(
      ORIGINAL.replace('"model": "anthropic/claude-sonnet-4-6"', '"model": "openai/gpt-5"').replace(
        `"gateway": { "host": "${GATEWAY_REFERENCE}" }\n`,
        `"gateway": { "host": "${GATEWAY_REFERENCE}" },\n    "outputStyle": "concise"\n`,
      ),
    );
  });

  it('removes a field given undefined, keeping the rest', async () => {
    await setConfigValue(file, ['agents', 'build', 'temperature'], undefined, { env });
    const text = await readFile(file, 'utf8');
    expect(text).toContain('// My workspace');
    expect(text).toContain('/* agents I use */');
    expect(text).not.toContain('temperature');
  });

  it('refuses an invalid change and leaves the file untouched', async () => {
    await expect(setConfigValue(file, ['agents', 'build', 'temperature'], 'hot', { env })).rejects.toMatchObject({
      reason: 'schema',
      field: 'agents.build.temperature',
    });
    await expect(
      updateConfig(
        file,
        (draft) => {
          draft.providers = { anthropic: { apiKey: 'sk-ant-api03-notinconfignotinconfig' } };
        },
        { env },
      ),
    ).rejects.toMatchObject({ reason: 'raw-secret', field: 'providers.anthropic.apiKey' });
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
    expect(await readdir(dir)).toEqual(['boxagnts.json']);
  });

  it('keeps the old file when the write fails half-way (simulated crash)', async () => {
    const crash = setConfigValue(file, ['model'], 'openai/gpt-5', {
      env,
      operations: {
        write: async (handle, data) => {
          await handle.writeFile(data.slice(0, 10));
          throw new Error('disk full');
        },
      },
    });
    await expect(crash).rejects.toThrow('disk full');
    expect(await readFile(file, 'utf8')).toBe(ORIGINAL);
    expect(await readdir(dir)).toEqual(['boxagnts.json']);
  });

  it('keeps the file mode', async () => {
    const { chmod } = await import('node:fs/promises');
    await chmod(file, 0o640);
    await setConfigValue(file, ['model'], 'openai/gpt-5', { env });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });
});

describe('detectFormatting', () => {
  it('follows tabs, space widths and CRLF', () => {
    expect(detectFormatting('{\n\t"a": 1\n}')).toEqual({ insertSpaces: false, tabSize: 1, eol: '\n' });
    expect(detectFormatting('{\r\n    "a": 1\r\n}')).toEqual({ insertSpaces: true, tabSize: 4, eol: '\r\n' });
    expect(detectFormatting('{}')).toEqual({ insertSpaces: true, tabSize: 2, eol: '\n' });
  });
});

describe('diffConfig', () => {
  it('lists added, changed and removed leaves; arrays as a whole', () => {
    expect(
      diffConfig({ a: 1, b: { c: 2, d: 3 }, e: [1, 2] }, { a: 1, b: { c: 5 }, e: [1, 2, 3], f: { g: true } }),
    ).toEqual([
      [['b', 'c'], 5],
      [['b', 'd'], undefined],
      [['e'], [1, 2, 3]],
      [['f'], { g: true }],
    ]);
  });
});
