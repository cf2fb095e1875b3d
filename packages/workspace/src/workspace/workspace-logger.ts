import { redactSecrets } from '@boxagnts/api';
import { isSecret } from '../config/secret.js';

/** Where a workspace reports what it does; pass your logger (pino, console, ...) to see it. */
export interface WorkspaceLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops everything (the default). */
export const silentLogger: WorkspaceLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Deep copy of log fields with {@link Secret}s masked and credential-shaped text redacted. */
export function sanitizeLogFields(value: unknown, known: readonly string[] = [], depth = 0): unknown {
  if (isSecret(value)) return value.masked;
  if (typeof value === 'string') return redactSecrets(value, known);
  if (value instanceof Error) return redactSecrets(value.message, known);
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => sanitizeLogFields(item, known, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) result[key] = sanitizeLogFields(item, known, depth + 1);
  return result;
}

/**
 * Wraps a logger so nothing written through it can carry a secret: messages and fields pass through
 * {@link sanitizeLogFields}, with `knownSecrets()` (the values the workspace has handed out) removed
 * verbatim as well.
 */
export function maskingLogger(logger: WorkspaceLogger, knownSecrets: () => readonly string[]): WorkspaceLogger {
  const wrap =
    (level: keyof WorkspaceLogger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      const known = knownSecrets();
      const safeMessage = redactSecrets(message, known);
      if (fields === undefined) logger[level](safeMessage);
      else logger[level](safeMessage, sanitizeLogFields(fields, known) as Record<string, unknown>);
    };
  return { info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
