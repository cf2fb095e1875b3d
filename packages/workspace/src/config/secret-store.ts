import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inspect } from 'node:util';
import { writeFileAtomic } from './atomic-write.js';
import { ConfigError } from './config-error.js';
import { parseJsoncObject } from './jsonc-document.js';
import { SECRET_NAME_PATTERN } from './key-reference.js';
import { isSecret, Secret } from './secret.js';

/** Options of {@link SecretStore.open}. */
export interface SecretStoreOptions {
  /** Create an empty secrets file (mode 0600) when there is none; default true. */
  create?: boolean;
  /** Tighten a secrets file readable by others to 0600 instead of refusing it; default false. */
  fixPermissions?: boolean;
}

const FILE_MODE = 0o600;

/**
 * The workspace's secrets (API keys, gateway tokens), kept apart from the config in a JSON file
 * `{ "version": 1, "secrets": { "<name>": "<value>" } }` that only its owner may read (mode 0600,
 * checked on every read, kept on every atomic write). Values come out as {@link Secret}s; the store
 * itself prints only its file and the names.
 *
 * @example
 * const secrets = await SecretStore.open('/ws/.boxagnts/secrets.json');
 * await secrets.set('anthropic', process.env.ANTHROPIC_API_KEY ?? '');
 * const key = await secrets.get('anthropic'); // Secret, prints 'sk-ant-…abcd'
 */
export class SecretStore {
  /** The secrets file. */
  readonly file: string;
  readonly #fixPermissions: boolean;
  #writes: Promise<unknown> = Promise.resolve();

  private constructor(file: string, fixPermissions: boolean) {
    this.file = file;
    this.#fixPermissions = fixPermissions;
  }

  /** Opens (and by default creates) a secrets file, refusing one that others can read. */
  static async open(file: string, options: SecretStoreOptions = {}): Promise<SecretStore> {
    const store = new SecretStore(file, options.fixPermissions ?? false);
    const exists = await stat(file).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw store.#ioError('cannot be read', error);
      },
    );
    if (!exists) {
      if (options.create === false) {
        throw new ConfigError({ reason: 'io', file, detail: 'the secrets file does not exist.' });
      }
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await writeFileAtomic(file, `${JSON.stringify({ version: 1, secrets: {} }, null, 2)}\n`, { mode: FILE_MODE });
    }
    await store.#read();
    return store;
  }

  /** The secret of a name, or undefined. */
  async get(name: string): Promise<Secret | undefined> {
    const value = (await this.#read())[name];
    return value === undefined ? undefined : new Secret(value, `secret:${name}`);
  }

  /** The secret of a name; a missing one is a {@link ConfigError} saying how to add it. */
  async require(name: string, field?: string): Promise<Secret> {
    const secret = await this.get(name);
    if (secret !== undefined) return secret;
    throw new ConfigError({
      reason: 'missing-secret',
      file: this.file,
      ...(field === undefined ? {} : { field }),
      detail: `no secret named "${name}". Add it with workspace.secrets.set("${name}", value).`,
    });
  }

  /** Whether a name is set. */
  async has(name: string): Promise<boolean> {
    return (await this.#read())[name] !== undefined;
  }

  /** The names of the stored secrets (never the values), sorted. */
  async list(): Promise<string[]> {
    return Object.keys(await this.#read()).sort();
  }

  /** Stores a secret (atomic write, mode 0600). */
  async set(name: string, value: string | Secret): Promise<void> {
    if (!SECRET_NAME_PATTERN.test(name)) {
      throw new ConfigError({
        reason: 'schema',
        file: this.file,
        field: name,
        detail: 'secret names are 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.',
      });
    }
    const plain = isSecret(value) ? value.reveal() : value;
    if (plain === '') {
      throw new ConfigError({ reason: 'schema', file: this.file, field: name, detail: 'a secret must not be empty.' });
    }
    await this.#change((secrets) => {
      secrets[name] = plain;
    });
  }

  /** Removes a secret; false when there was none. */
  async delete(name: string): Promise<boolean> {
    let existed = false;
    await this.#change((secrets) => {
      existed = name in secrets;
      delete secrets[name];
    });
    return existed;
  }

  toJSON(): { file: string } {
    return { file: this.file };
  }

  [inspect.custom](): string {
    return `SecretStore(${this.file})`;
  }

  #ioError(what: string, error: unknown): ConfigError {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return new ConfigError({ reason: 'io', file: this.file, detail: `${what} (${code}).`, cause: error });
  }

  async #checkMode(): Promise<void> {
    const mode = (await stat(this.file)).mode & 0o777;
    if ((mode & 0o077) === 0) return;
    if (this.#fixPermissions) {
      await chmod(this.file, FILE_MODE);
      return;
    }
    throw new ConfigError({
      reason: 'file-mode',
      file: this.file,
      detail: `the secrets file is readable by other users (mode ${mode.toString(8).padStart(4, '0')}). Run "chmod 600 ${this.file}" (and rotate the keys if others could read them), or open the workspace with fixPermissions: true.`,
    });
  }

  async #read(): Promise<Record<string, string>> {
    await this.#checkMode();
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      throw this.#ioError('cannot be read', error);
    }
    const document = parseJsoncObject(text, this.file);
    const secrets = document.secrets ?? {};
    if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) {
      throw new ConfigError({
        reason: 'schema',
        file: this.file,
        field: 'secrets',
        detail: 'must be an object of name -> value.',
      });
    }
    const result: Record<string, string> = {};
    for (const [name, value] of Object.entries(secrets)) {
      if (typeof value !== 'string') {
        throw new ConfigError({
          reason: 'schema',
          file: this.file,
          field: `secrets.${name}`,
          detail: 'must be a string.',
        });
      }
      result[name] = value;
    }
    return result;
  }

  #change(edit: (secrets: Record<string, string>) => void): Promise<void> {
    const next = this.#writes.then(async () => {
      const secrets = await this.#read();
      edit(secrets);
      const text = `${JSON.stringify({ version: 1, secrets }, null, 2)}\n`;
      await writeFileAtomic(this.file, text, { mode: FILE_MODE });
    });
    this.#writes = next.catch(() => undefined);
    return next;
  }
}
