import { inspect } from 'node:util';

const SECRET_MARKER = Symbol.for('boxagnts.workspace.secret');
const KNOWN_PREFIX = /^(?:sk-ant-|sk-proj-|sk-|xai-|gsk_|pplx-|csk-|nvapi-|hf_|ghp_|github_pat_|glpat-|AIza|AKIA)/;

/**
 * The masked form of a secret for logs, errors and APIs: a known vendor prefix, an ellipsis and at
 * most the last 4 characters (`sk-…abcd`); values shorter than 16 characters show no characters at all.
 *
 * @example
 * mask('sk-ant-api03-abcdefghijklmnop'); // 'sk-ant-…mnop'
 */
export function mask(value: string): string {
  if (value.length < 16) return '…';
  const prefix = KNOWN_PREFIX.exec(value)?.[0] ?? '';
  return `${prefix}…${value.slice(-4)}`;
}

/**
 * A secret value (API key, token) that prints only its masked form: `toString`, `toJSON`, template
 * strings and `util.inspect` all show {@link mask}ed text, so a secret that reaches a log line, an
 * error or a JSON response does not leak. Call {@link Secret.reveal} at the one place the real value
 * is needed (the request header).
 *
 * @example
 * const key = new Secret('sk-ant-api03-abcdefghijklmnop', 'secret:anthropic');
 * `${key}`; // 'sk-ant-…mnop'
 * key.reveal(); // the key
 */
export class Secret {
  readonly [SECRET_MARKER] = true;
  readonly #value: string;
  /** Where the value came from (`secret:anthropic`, `env:ANTHROPIC_API_KEY`), for messages. */
  readonly source: string;

  constructor(value: string, source: string) {
    this.#value = value;
    this.source = source;
  }

  /** The real value. Hand it only to the code that sends it. */
  reveal(): string {
    return this.#value;
  }

  /** The masked form. */
  get masked(): string {
    return mask(this.#value);
  }

  toString(): string {
    return this.masked;
  }

  toJSON(): string {
    return this.masked;
  }

  [Symbol.toPrimitive](): string {
    return this.masked;
  }

  [inspect.custom](): string {
    return `Secret(${this.masked} from ${this.source})`;
  }
}

/** True for a {@link Secret}, even one from another copy of this package. */
export function isSecret(value: unknown): value is Secret {
  return typeof value === 'object' && value !== null && SECRET_MARKER in value;
}
