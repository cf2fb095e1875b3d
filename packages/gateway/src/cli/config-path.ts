import { CliError } from './cli-error.js';

/** Names a config path may not use: they would reach an object's prototype instead of a field. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Parses a dotted config path (`agents.build.model`, `mcpServers.0.command`): segments of digits
 * become array indices. An empty path, an empty segment or a prototype name is a {@link CliError}.
 */
export function parseConfigPath(text: string): (string | number)[] {
  const segments = text.split('.');
  if (text.trim() === '' || segments.some((segment) => segment === '')) {
    throw new CliError(
      `bad config path ${JSON.stringify(text)}: write fields joined by dots, such as agents.build.model.`,
    );
  }
  for (const segment of segments) {
    if (FORBIDDEN_SEGMENTS.has(segment)) {
      throw new CliError(`bad config path ${JSON.stringify(text)}: "${segment}" is not a config field.`);
    }
  }
  return segments.map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** The value at a path of a parsed config, or a {@link CliError} naming the fields that do exist there. */
export function valueAtPath(root: unknown, path: readonly (string | number)[], text: string): unknown {
  let value: unknown = root;
  for (const [index, segment] of path.entries()) {
    const here = path.slice(0, index).join('.') || 'the config';
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) {
      const fields =
        typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value).sort() : [];
      throw new CliError(
        `no config value at ${JSON.stringify(text)}${fields.length === 0 ? '' : `; ${here} has: ${fields.join(', ')}`}.`,
      );
    }
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
