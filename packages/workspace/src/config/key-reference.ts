import { z } from 'zod';

/**
 * Where a secret comes from: an environment variable (`{ "env": "ANTHROPIC_API_KEY" }`) or an entry of
 * the workspace's secrets file (`{ "secret": "anthropic" }`). The config never holds the key itself.
 */
export type KeyReference = { env: string } | { secret: string };

/** Environment variable names: letters, digits and `_`, not starting with a digit. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Secret names: 1-64 letters, digits, `.`, `_` and `-`, starting with a letter or digit. */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Validates a {@link KeyReference}; a plain string is refused with a message telling where keys go. */
export const keyReferenceSchema = z.union(
  [
    z.strictObject({
      env: z.string().regex(ENV_NAME_PATTERN, 'must be an environment variable name such as ANTHROPIC_API_KEY'),
    }),
    z.strictObject({
      secret: z
        .string()
        .regex(SECRET_NAME_PATTERN, 'must be a secret name: letters, digits, ".", "_" or "-" (at most 64)'),
    }),
  ],
  {
    error: (issue) =>
      typeof issue.input === 'string'
        ? 'must be a key reference, not the key itself: store the key in the secrets file and write { "secret": "<name>" }, or write { "env": "<VARIABLE>" }'
        : 'must be { "env": "<VARIABLE>" } or { "secret": "<name>" }',
  },
);

/** A human-readable form of a reference (`env:NAME`, `secret:name`) for messages. */
export function describeKeyReference(reference: KeyReference): string {
  return 'env' in reference ? `env:${reference.env}` : `secret:${reference.secret}`;
}
