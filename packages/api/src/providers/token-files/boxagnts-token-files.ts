import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { rememberSecret } from '../../shared/secret-registry.js';
import { AuthenticationError } from '../../spec/llm-error-classes.js';

/**
 * Where BoxAgnts keeps its state: `<workspace>/.boxagnts/`, the workspace being the folder it runs
 * in. A relative `dir` is taken from `process.cwd()` when a request is made.
 */
export const BOXAGNTS_STATE_DIR = '.boxagnts';

/** The folder holding BoxAgnts' token files: `dir` (absolute or from the working directory), else `./.boxagnts`. */
export function boxagntsStateDir(dir: string | undefined): string {
  const chosen = dir === undefined || dir.trim() === '' ? BOXAGNTS_STATE_DIR : dir.trim();
  return isAbsolute(chosen) ? chosen : resolve(process.cwd(), chosen);
}

// BoxAgnts' `auth.json` (its `AuthStore`): `{credentials: {<provider id>: {type: 'api', key} |
// {type: 'oauth', access, refresh, expires}}}`. Lenient on what else a file holds.
const storedCredentialSchema = z.union([
  z.object({ type: z.literal('api'), key: z.string() }).passthrough(),
  z.object({ type: z.literal('oauth'), access: z.string().optional(), refresh: z.string().optional() }).passthrough(),
]);
const authStoreSchema = z.object({ credentials: z.record(z.string(), z.unknown()).default({}) }).passthrough();

/**
 * The token BoxAgnts stored for `providerId` in `<dir>/auth.json`: an API key, or for an OAuth entry
 * the `refresh` token (else `access`), as BoxAgnts' own `api_key_for` returns it for GitHub Copilot.
 * `undefined` when the file or the entry is absent; a file that is not BoxAgnts' format is an
 * {@link AuthenticationError} naming the file.
 */
export async function readBoxAgntsAuthToken(dir: string, providerId: string): Promise<string | undefined> {
  const path = join(dir, 'auth.json');
  const parsed = await readJsonFile(path, providerId);
  if (parsed === undefined) return undefined;
  const store = authStoreSchema.safeParse(parsed);
  if (!store.success) throw badFile(path, providerId, 'it has no `credentials` object');
  const entry = store.data.credentials[providerId];
  if (entry === undefined) return undefined;
  const credential = storedCredentialSchema.safeParse(entry);
  if (!credential.success)
    throw badFile(
      path,
      providerId,
      `its "${providerId}" entry is neither {type: "api", key} nor {type: "oauth", access, refresh}`,
    );
  const value =
    credential.data.type === 'api'
      ? credential.data.key
      : (nonBlank(credential.data.refresh) ?? nonBlank(credential.data.access));
  const token = nonBlank(value);
  if (token !== undefined) rememberSecret(token);
  return token;
}

/** BoxAgnts' `codex_tokens.json`: the ChatGPT OAuth tokens its Codex provider uses. */
export interface CodexTokens {
  access_token: string;
  refresh_token?: string;
  account_id?: string;
  /** Unix time in seconds when the access token expires. */
  expires_at?: number;
}

const codexTokensSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string().optional().nullable(),
    account_id: z.string().optional().nullable(),
    expires_at: z.number().int().nonnegative().optional().nullable(),
  })
  .passthrough();

/** The path of BoxAgnts' Codex token file in `dir`. */
export function codexTokensPath(dir: string): string {
  return join(dir, 'codex_tokens.json');
}

/** Reads `<dir>/codex_tokens.json`; `undefined` when it is absent or holds no access token. */
export async function readCodexTokens(dir: string, providerId: string): Promise<CodexTokens | undefined> {
  const path = codexTokensPath(dir);
  const parsed = await readJsonFile(path, providerId);
  if (parsed === undefined) return undefined;
  const tokens = codexTokensSchema.safeParse(parsed);
  if (!tokens.success)
    throw badFile(path, providerId, 'it is not {access_token, refresh_token?, account_id?, expires_at?}');
  const access = nonBlank(tokens.data.access_token);
  if (access === undefined) return undefined;
  rememberSecret(access);
  const refresh = nonBlank(tokens.data.refresh_token ?? undefined);
  if (refresh !== undefined) rememberSecret(refresh);
  return {
    access_token: access,
    ...(refresh === undefined ? {} : { refresh_token: refresh }),
    ...(nonBlank(tokens.data.account_id ?? undefined) === undefined
      ? {}
      : { account_id: tokens.data.account_id as string }),
    ...(typeof tokens.data.expires_at === 'number' ? { expires_at: tokens.data.expires_at } : {}),
  };
}

/**
 * Writes refreshed tokens back in BoxAgnts' format, so BoxAgnts and this package keep sharing one
 * login: to a temporary file first, then renamed over the old one (a crash never leaves half a
 * file), readable by the owner only.
 */
export async function saveCodexTokens(dir: string, tokens: CodexTokens): Promise<void> {
  const path = codexTokensPath(dir);
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, JSON.stringify(tokens), { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** Token files are small; anything larger is not one (and is not read into memory whole). */
const MAX_TOKEN_FILE_BYTES = 1024 * 1024;

async function readJsonFile(path: string, providerId: string): Promise<unknown> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.byteLength > MAX_TOKEN_FILE_BYTES)
      throw badFile(path, providerId, `it is larger than ${MAX_TOKEN_FILE_BYTES} bytes`);
    text = bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') return undefined;
    if (error instanceof AuthenticationError) throw error;
    throw badFile(path, providerId, `it cannot be read (${(error as NodeJS.ErrnoException)?.code ?? 'error'})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badFile(path, providerId, 'it is not JSON');
  }
}

function badFile(path: string, providerId: string, problem: string): AuthenticationError {
  return new AuthenticationError({
    providerId,
    isRetryable: false,
    message: `The BoxAgnts token file ${path} cannot be used: ${problem}. Log in again with BoxAgnts, or pass \`apiKey\`.`,
  });
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
