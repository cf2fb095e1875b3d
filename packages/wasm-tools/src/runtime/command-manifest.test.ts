import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { manifestCandidates, parseCommandManifest, readCommandManifest } from './command-manifest.js';
import { isComponentRuntimeError } from './component-runtime-error.js';
import { tempDir } from './test-fixtures.js';

const valid = {
  name: 'hello',
  description: 'Say hello.',
  input_schema: { type: 'object', properties: { name: { type: 'string' } } },
  permission: 'read-only',
};

function errorOf(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('command manifests', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('accepts input_schema or inputSchema and defaults env', () => {
    expect(parseCommandManifest(valid, 'm.json')).toEqual({
      name: 'hello',
      description: 'Say hello.',
      inputSchema: valid.input_schema,
      permission: 'read-only',
      env: [],
    });
    const camel = parseCommandManifest(
      { ...valid, input_schema: undefined, inputSchema: { properties: {} }, env: ['API_TOKEN'] },
      'm.json',
    );
    expect(camel.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(camel.env).toEqual(['API_TOKEN']);
  });

  it('names the file and the field that is wrong', () => {
    const badPermission = errorOf(() => parseCommandManifest({ ...valid, permission: 'root' }, '/x/tool.json'));
    expect(isComponentRuntimeError(badPermission)).toBe(true);
    expect(badPermission.message).toContain('/x/tool.json: field "permission"');
    const badName = errorOf(() => parseCommandManifest({ ...valid, name: 'has space' }, 'a.json'));
    expect(badName.message).toContain('a.json: field "name" must be 1-64 letters');
    const both = errorOf(() => parseCommandManifest({ ...valid, inputSchema: {} }, 'b.json'));
    expect(both.message).toContain('field "input_schema" give exactly one of');
    const extra = errorOf(() => parseCommandManifest({ ...valid, descripton: 'typo' }, 'c.json'));
    expect(extra.message).toContain('c.json: field (top level)');
    const notObject = errorOf(() => parseCommandManifest({ ...valid, input_schema: { type: 'string' } }, 'd.json'));
    expect(notObject.message).toContain('field "input_schema" must be an object schema');
    const env = errorOf(() => parseCommandManifest({ ...valid, env: ['BAD-NAME'] }, 'e.json'));
    expect(env.message).toContain('field "env.0" must be an environment variable name');
  });

  it('finds tool.wasm.json first, then tool.json', async () => {
    const dir = await tempDir('manifest');
    cleanups.push(dir.remove);
    const wasm = join(dir.path, 'tool.wasm');
    expect(manifestCandidates(wasm)).toEqual([`${wasm}.json`, join(dir.path, 'tool.json')]);
    expect(await readCommandManifest(wasm)).toBeUndefined();
    await writeFile(join(dir.path, 'tool.json'), JSON.stringify({ ...valid, name: 'plain' }));
    expect((await readCommandManifest(wasm))?.name).toBe('plain');
    await writeFile(`${wasm}.json`, JSON.stringify({ ...valid, name: 'specific' }));
    expect((await readCommandManifest(wasm))?.name).toBe('specific');
    await writeFile(`${wasm}.json`, '{ not json');
    await expect(readCommandManifest(wasm)).rejects.toThrow(`${wasm}.json is not valid JSON`);
  });
});
