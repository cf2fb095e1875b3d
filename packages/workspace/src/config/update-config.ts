import type { FormattingOptions, JSONPath } from 'jsonc-parser';
import { type AtomicWriteOperations, writeFileAtomic } from './atomic-write.js';
import type { ResolvedConfig } from './config-defaults.js';
import { ConfigError } from './config-error.js';
import { formatFieldPath } from './env-substitution.js';
import { CONFIG_MAX_DEPTH, valueDepthExceeds } from './jsonc-depth.js';
import { parseJsoncObject } from './jsonc-document.js';
import { editJsonc } from './jsonc-edit.js';
import { type LoadConfigOptions, parseConfigText, readConfigFile } from './load-config.js';

/** Options of {@link updateConfig} and {@link setConfigValue}. */
export interface UpdateConfigOptions extends LoadConfigOptions {
  /** Replaces file operations of the atomic write (for crash tests). */
  operations?: Partial<AtomicWriteOperations>;
}

/** A JSON value as it appears in the config file. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The indentation and line ends the file already uses, so edits look like the user's own. */
export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indented === undefined ? 2 : indented.length, eol };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The smallest set of `[path, value]` changes turning `before` into `after` (`undefined` removes). */
export function diffConfig(before: unknown, after: unknown, path: JSONPath = []): [JSONPath, unknown][] {
  if (!isPlainObject(before) || !isPlainObject(after)) return sameValue(before, after) ? [] : [[path, after]];
  const changes: [JSONPath, unknown][] = [];
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (!(key in before)) changes.push([[...path, key], value]);
    else changes.push(...diffConfig(before[key], value, [...path, key]));
  }
  for (const key of Object.keys(before)) {
    if (!(key in after) || after[key] === undefined) changes.push([[...path, key], undefined]);
  }
  return changes;
}

async function writeChanges(
  path: string,
  text: string,
  changes: readonly [JSONPath, unknown][],
  options: UpdateConfigOptions,
): Promise<ResolvedConfig> {
  for (const [fieldPath, value] of changes) {
    if (fieldPath.length + 1 > CONFIG_MAX_DEPTH || valueDepthExceeds(value, CONFIG_MAX_DEPTH - fieldPath.length)) {
      throw new ConfigError({
        reason: 'schema',
        file: path,
        field: formatFieldPath(fieldPath.filter((part) => typeof part !== 'symbol')),
        detail: `the new value is nested more than ${CONFIG_MAX_DEPTH} levels deep (or refers to itself); no setting needs that. Pass a flatter value. The file was not changed.`,
      });
    }
  }
  const formattingOptions = detectFormatting(text);
  let updated = text;
  for (const [fieldPath, value] of changes) {
    updated = editJsonc(updated, fieldPath, value, formattingOptions);
  }
  // Validate the new text in full before it replaces the old: an invalid update leaves the file as it was.
  const config = parseConfigText(updated, path, options);
  if (updated !== text)
    await writeFileAtomic(path, updated, { ...(options.operations && { operations: options.operations }) });
  return config;
}

/**
 * Changes the config file through a draft of its parsed content (before `${env:NAME}` substitution,
 * so references survive) and writes back only what changed, keeping comments, order and indentation.
 * The result is validated before the atomic write; an invalid change throws a {@link ConfigError}
 * and leaves the file untouched.
 *
 * @example
 * await updateConfig('/ws/boxagnts.json', (draft) => {
 *   draft.model = 'openai/gpt-5';
 * });
 */
export async function updateConfig(
  path: string,
  recipe: (draft: Record<string, JsonValue>) => Record<string, JsonValue> | undefined,
  options: UpdateConfigOptions = {},
): Promise<ResolvedConfig> {
  const text = await readConfigFile(path, options, 'It must exist before it is updated.');
  const before = parseJsoncObject(text, path);
  const draft = structuredClone(before) as Record<string, JsonValue>;
  const after = recipe(draft) ?? draft;
  return writeChanges(path, text, diffConfig(before, after), options);
}

/**
 * Sets (or with `undefined` removes) one field of the config file, e.g. `['agents', 'build', 'model']`,
 * creating parent objects as needed; see {@link updateConfig} for formatting and validation.
 *
 * @example
 * await setConfigValue('/ws/boxagnts.json', ['agents', 'build', 'model'], 'openai/gpt-5');
 */
export async function setConfigValue(
  path: string,
  fieldPath: JSONPath,
  value: JsonValue | undefined,
  options: UpdateConfigOptions = {},
): Promise<ResolvedConfig> {
  const text = await readConfigFile(path, options, 'It must exist before it is updated.');
  parseJsoncObject(text, path);
  return writeChanges(path, text, [[fieldPath, value]], options);
}
