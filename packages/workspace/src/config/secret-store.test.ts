import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConfigError } from './config-error.js';
import { resolveKeyReference } from './resolve-key-reference.js';
import { SecretStore } from './secret-store.js';

const KEY = 'sk-test-0123456789abcdefghij';

describe('SecretStore', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'boxagnts-secrets-'));
    file = join(dir, '.boxagnts', 'secrets.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const mode = async (path: string) => (await stat(path)).mode & 0o777;

  it('creates the file with mode 0600 in a 0700 folder and keeps 0600 across writes', async () => {
    const store = await SecretStore.open(file);
    expect(await mode(file)).toBe(0o600);
    expect(await mode(join(dir, '.boxagnts'))).toBe(0o700);
    await store.set('anthropic', KEY);
    await store.set('openai', 'sk-proj-zyxwvutsrqponmlk');
    expect(await mode(file)).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      version: 1,
      secrets: { anthropic: KEY, openai: 'sk-proj-zyxwvutsrqponmlk' },
    });
  });

  it('gets Secrets, lists names only, deletes', async () => {
    const store = await SecretStore.open(file);
    await store.set('anthropic', KEY);
    const secret = await store.get('anthropic');
    expect(secret?.reveal()).toBe(KEY);
    expect(String(secret)).toBe('sk-…ghij');
    expect(await store.list()).toEqual(['anthropic']);
    expect(await store.has('anthropic')).toBe(true);
    expect(await store.delete('anthropic')).toBe(true);
    expect(await store.delete('anthropic')).toBe(false);
    expect(await store.get('anthropic')).toBeUndefined();
    await expect(store.require('anthropic')).rejects.toMatchObject({ reason: 'missing-secret' });
  });

  it('refuses a file others can read, naming the fix, and repairs it on request', async () => {
    const store = await SecretStore.open(file);
    await store.set('anthropic', KEY);
    await chmod(file, 0o644);
    const error = await SecretStore.open(file).catch((caught: unknown) => caught);
    expect(isConfigError(error) && error.reason).toBe('file-mode');
    expect((error as Error).message).toContain(`mode 0644). Run "chmod 600 ${file}"`);
    await expect(store.get('anthropic')).rejects.toMatchObject({ reason: 'file-mode' });
    const repaired = await SecretStore.open(file, { fixPermissions: true });
    expect(await mode(file)).toBe(0o600);
    expect((await repaired.get('anthropic'))?.reveal()).toBe(KEY);
  });

  it('refuses bad names and empty values', async () => {
    const store = await SecretStore.open(file);
    await expect(store.set('../escape', KEY)).rejects.toMatchObject({ reason: 'schema' });
    await expect(store.set('ok', '')).rejects.toMatchObject({ reason: 'schema' });
  });

  it('does not echo file contents in a syntax error', async () => {
    await SecretStore.open(file);
    await writeFile(file, `{ "secrets": { "a": ${KEY} } }`, { mode: 0o600 });
    const error = (await SecretStore.open(file).catch((caught: unknown) => caught)) as Error;
    expect(isConfigError(error)).toBe(true);
    expect(error.message).not.toContain('0123456789');
  });

  it('serialises concurrent writes so none is lost', async () => {
    const store = await SecretStore.open(file);
    await Promise.all(Array.from({ length: 10 }, (_, index) => store.set(`key-${index}`, `value-${index}`)));
    expect(await store.list()).toHaveLength(10);
  });

  it('prints only its file', async () => {
    const store = await SecretStore.open(file);
    await store.set('anthropic', KEY);
    expect(JSON.stringify(store)).toBe(JSON.stringify({ file }));
    expect(inspect(store, { showHidden: true, depth: 10 })).not.toContain('0123456789');
  });

  it('resolves key references from the file and the environment', async () => {
    const secrets = await SecretStore.open(file);
    await secrets.set('anthropic', KEY);
    expect((await resolveKeyReference({ secret: 'anthropic' }, { secrets })).reveal()).toBe(KEY);
    const fromEnv = await resolveKeyReference({ env: 'MY_KEY' }, { secrets, env: { MY_KEY: 'env-value-1234567890' } });
    expect(fromEnv.reveal()).toBe('env-value-1234567890');
    expect(fromEnv.source).toBe('env:MY_KEY');
    await expect(
      resolveKeyReference({ env: 'NOPE' }, { secrets, env: {}, file: 'boxagnts.json', field: 'providers.x.apiKey' }),
    ).rejects.toThrow('boxagnts.json: providers.x.apiKey: environment variable NOPE is not set.');
  });
});
