import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readConfinedFile } from '@boxagnts/tools';
import { applyConfigDefaults, type ResolvedConfig } from './config-defaults.js';
import { ConfigError, isConfigError } from './config-error.js';
import { configSchema } from './config-schema.js';
import { formatFieldPath, substituteEnv } from './env-substitution.js';
import { type EnvSubstitution, rememberEnvValues, scrubConfigError } from './env-values.js';
import { findRawSecrets } from './find-raw-secrets.js';
import { locateField, parseJsoncObject } from './jsonc-document.js';
import { schemaIssueToError } from './schema-issue.js';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** The environment `${env:NAME}` reads; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The folder relative paths start from; default the config file's folder. */
  baseDir?: string;
  /**
   * The folder the file's real path must stay in: a config that is a link out of it is refused with
   * an `unsafe-link` ConfigError. A workspace passes its folder; default: links are followed.
   */
  confineTo?: string;
}

/**
 * Reads a config file's text, as {@link loadConfig}, `reload` and the updates do: a missing or
 * unreadable file, and one linked out of `confineTo`, is a {@link ConfigError}.
 */
export async function readConfigFile(path: string, options: LoadConfigOptions, doing: string): Promise<string> {
  if (options.confineTo !== undefined) {
    const read = await readConfinedFile(path, { within: options.confineTo });
    if (read.ok) return read.text;
    if (read.problem === 'outside' || read.problem === 'not-a-file') {
      throw new ConfigError({
        reason: 'unsafe-link',
        file: path,
        detail: `${read.message}. The config is read only from inside ${options.confineTo}, so a link planted there cannot hand the host another file as its configuration.`,
      });
    }
  }
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError({
      reason: 'io',
      file: path,
      detail:
        code === 'ENOENT'
          ? `the config file does not exist. ${doing}`
          : `cannot be read (${code ?? 'error'}). Check the file's permissions.`,
      cause: error,
    });
  }
}

function refuseRawSecrets(value: unknown, text: string, file: string, afterSubstitution: boolean): void {
  const finding = findRawSecrets(value)[0];
  if (finding === undefined) return;
  const what =
    finding.kind === 'url-password'
      ? 'holds a URL with a password'
      : afterSubstitution
        ? 'receives a credential through an environment variable reference'
        : 'holds what looks like an API key or token';
  throw new ConfigError({
    reason: 'raw-secret',
    file,
    field: formatFieldPath(finding.path),
    ...locateField(text, finding.path),
    detail:
      `${what}. Secrets never go in the config: store it in the secrets file (.boxagnts/secrets.json, ` +
      'via workspace.secrets.set(name, value)) and write { "secret": "<name>" } here, or write { "env": "<VARIABLE>" }.',
  });
}

/**
 * Validates the text of a config file and fills in the defaults: JSON with comments is parsed
 * (syntax errors carry line and column), credentials written into the file are refused,
 * `${env:NAME}` is substituted, then the strict schema runs. Every failure is a {@link ConfigError}.
 *
 * @example
 * const config = parseConfigText('{ "model": "openai/gpt-5" }', '/ws/boxagnts.json');
 */
export function parseConfigText(text: string, file: string, options: LoadConfigOptions = {}): ResolvedConfig {
  const raw = parseJsoncObject(text, file);
  refuseRawSecrets(raw, text, file, false);
  const found: EnvSubstitution[] = [];
  const substituted = substituteEnv(raw, options.env ?? process.env, file, [], found);
  refuseRawSecrets(substituted, text, file, true);
  const parsed = configSchema.safeParse(substituted);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue === undefined) throw new ConfigError({ reason: 'schema', file, detail: 'is invalid.' });
    // A message may quote a field's value; one that came from the environment is shown as its reference.
    throw scrubConfigError(schemaIssueToError(issue, configSchema, text, file), found);
  }
  try {
    const config = applyConfigDefaults(parsed.data, file, options.baseDir ?? dirname(file));
    rememberEnvValues(config, found);
    return config;
  } catch (error) {
    throw isConfigError(error) ? scrubConfigError(error, found) : error;
  }
}

/**
 * Reads and validates a config file (see {@link parseConfigText}). A missing or unreadable file is a
 * {@link ConfigError} too: there is no silent fallback to defaults.
 *
 * @example
 * const config = await loadConfig('/ws/boxagnts.json');
 * config.model; // 'anthropic/claude-sonnet-4-6' unless configured
 */
export async function loadConfig(path: string, options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  const text = await readConfigFile(path, options, 'Create it (openWorkspace writes a commented default).');
  return parseConfigText(text, path, options);
}
