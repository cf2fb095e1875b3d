import { createOpenAIResponsesProvider } from '../../adapters/openai-responses/openai-responses-provider.js';
import type { AdapterSettings } from '../../shared/adapter-settings.js';
import { createProviderFetch } from '../../shared/provider-fetch.js';
import { redactSecrets } from '../../shared/redact-secrets.js';
import { rememberSecret } from '../../shared/secret-registry.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import { isLlmError, type LlmError } from '../../spec/llm-error.js';
import type { LlmCallOptions, LlmProvider, ModelInfo } from '../../spec/provider.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import {
  boxagntsStateDir,
  type CodexTokens,
  codexTokensPath,
  readCodexTokens,
  saveCodexTokens,
} from './boxagnts-token-files.js';

/** The ChatGPT backend Codex speaks the Responses API on (`POST <base>/responses`). */
export const CODEX_DEFAULT_BASE_URL = 'https://chatgpt.com/backend-api/codex';
/** OpenAI's OAuth token endpoint, where an expired Codex access token is refreshed. */
export const CODEX_DEFAULT_TOKEN_URL = 'https://auth.openai.com/oauth/token';
/** The public OAuth client id of the Codex login that BoxAgnts (and OpenCode) use; tokens are bound to it. */
export const CODEX_OAUTH_CLIENT_ID = 'app_EMoamEEZ73f0CkXaXp7hrann';
/** The Codex models BoxAgnts offers (the endpoint has no model list). */
export const CODEX_MODELS: readonly string[] = [
  'gpt-5.2-codex',
  'gpt-5.1-codex',
  'gpt-5.1-codex-mini',
  'gpt-5.1-codex-max',
  'gpt-5.4',
  'gpt-5.2',
];
/** A token is refreshed this long before it expires, so a request never races the expiry. */
const EXPIRY_MARGIN_SECONDS = 60;

/** Settings of {@link createOpenAICodexProvider}. */
export interface OpenAICodexSettings extends AdapterSettings {
  /** The folder of BoxAgnts' `codex_tokens.json`. Default `./.boxagnts`, from the working directory when a request is made. */
  tokenDir?: string;
  /** The OAuth token endpoint for refreshes. Default {@link CODEX_DEFAULT_TOKEN_URL}. */
  tokenURL?: string;
  /** The OAuth client id sent with refreshes. Default {@link CODEX_OAUTH_CLIENT_ID}. */
  clientId?: string;
  /** The clock, in milliseconds (tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * An {@link LlmProvider} for OpenAI Codex with a ChatGPT subscription, reading the login BoxAgnts
 * stored in `<tokenDir>/codex_tokens.json` (`{access_token, refresh_token, account_id, expires_at}`).
 * An explicit `apiKey` (or one of `apiKeyEnvVars`) is used as the access token instead. When the
 * stored token is within a minute of `expires_at`, it is refreshed first (`grant_type:
 * refresh_token` at {@link CODEX_DEFAULT_TOKEN_URL}) and the new tokens are written back in BoxAgnts'
 * format, so both tools keep sharing one login; concurrent requests share one refresh. Requests go
 * to the Responses API on the ChatGPT backend with `ChatGPT-Account-Id` when the file names one;
 * `store: false`.
 *
 * @example
 * const codex = createOpenAICodexProvider(); // reads ./.boxagnts/codex_tokens.json
 * for await (const event of codex.streamMessage({ model: 'gpt-5.2-codex', messages })) ...
 */
export function createOpenAICodexProvider(settings: OpenAICodexSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? 'codex';
  const now = settings.now ?? Date.now;
  const tokenURL = settings.tokenURL ?? CODEX_DEFAULT_TOKEN_URL;
  const fetch = createProviderFetch({
    providerId,
    ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
  });
  let refreshing: Promise<CodexTokens> | undefined;
  let cached: { key: string; client: LlmProvider } | undefined;

  async function refresh(dir: string, tokens: CodexTokens): Promise<CodexTokens> {
    const refreshToken = tokens.refresh_token as string;
    let response: Response;
    try {
      response = await fetch(tokenURL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          grant_type: 'refresh_token',
          client_id: settings.clientId ?? CODEX_OAUTH_CLIENT_ID,
          refresh_token: refreshToken,
        }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      if (isLlmError(error)) throw error;
      throw createLlmError({
        reason: 'network',
        providerId,
        cause: error,
        message: `Refreshing the Codex login at ${tokenURL} failed: ${redactSecrets(String((error as Error)?.message ?? error))}.`,
      });
    }
    const text = await response.text();
    if (!response.ok) {
      throw createLlmError({
        reason: response.status >= 500 ? 'server' : 'auth',
        providerId,
        status: response.status,
        isRetryable: response.status >= 500,
        body: redactSecrets(text.slice(0, 2000)),
        message: `Refreshing the Codex login failed (HTTP ${response.status}): log in to Codex again with BoxAgnts (its tokens are in ${codexTokensPath(dir)}).`,
      });
    }
    let answer: { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      answer = {};
    }
    if (typeof answer.access_token !== 'string' || answer.access_token.trim() === '') {
      throw createLlmError({
        reason: 'auth',
        providerId,
        status: response.status,
        isRetryable: false,
        message: `Refreshing the Codex login returned no access_token: log in to Codex again with BoxAgnts.`,
      });
    }
    rememberSecret(answer.access_token);
    if (typeof answer.refresh_token === 'string') rememberSecret(answer.refresh_token);
    const updated: CodexTokens = {
      ...tokens,
      access_token: answer.access_token,
      ...(typeof answer.refresh_token === 'string' && answer.refresh_token !== ''
        ? { refresh_token: answer.refresh_token }
        : {}),
    };
    if (typeof answer.expires_in === 'number' && Number.isFinite(answer.expires_in)) {
      updated.expires_at = Math.floor(now() / 1000) + Math.floor(answer.expires_in);
    } else {
      delete updated.expires_at;
    }
    await saveCodexTokens(dir, updated);
    return updated;
  }

  /** The access token and account id of this request; refreshed first when expired. */
  async function credentials(): Promise<{ key: string; accountId?: string }> {
    const explicit = settings.apiKey?.trim();
    if (explicit !== undefined && explicit !== '') return { key: explicit };
    const env = settings.env ?? process.env;
    for (const name of settings.apiKeyEnvVars ?? []) {
      const value = env[name]?.trim();
      if (value !== undefined && value !== '') return { key: value };
    }
    const dir = boxagntsStateDir(settings.tokenDir);
    let tokens = await readCodexTokens(dir, providerId);
    if (tokens === undefined) {
      throw createLlmError({
        reason: 'auth',
        providerId,
        isRetryable: false,
        message: `No Codex login for provider "${providerId}": log in to OpenAI Codex with BoxAgnts (it writes ${codexTokensPath(dir)}), set tokenDir to the folder holding codex_tokens.json, or pass \`apiKey\`.`,
      });
    }
    const expired =
      tokens.expires_at !== undefined && Math.floor(now() / 1000) + EXPIRY_MARGIN_SECONDS >= tokens.expires_at;
    if (expired && tokens.refresh_token !== undefined) {
      const pending = tokens;
      refreshing ??= refresh(dir, pending).finally(() => {
        refreshing = undefined;
      });
      tokens = await refreshing;
    }
    return { key: tokens.access_token, ...(tokens.account_id === undefined ? {} : { accountId: tokens.account_id }) };
  }

  async function client(): Promise<LlmProvider> {
    const { key, accountId } = await credentials();
    const cacheKey = `${key}\u0000${accountId ?? ''}`;
    if (cached?.key !== cacheKey) {
      cached = {
        key: cacheKey,
        client: createOpenAIResponsesProvider({
          providerId,
          providerName: settings.providerName ?? 'OpenAI Codex',
          baseURL: settings.baseURL ?? CODEX_DEFAULT_BASE_URL,
          apiKey: key,
          headers: {
            'user-agent': 'boxagnts-ts',
            ...(accountId === undefined ? {} : { 'chatgpt-account-id': accountId }),
            ...settings.headers,
          },
          ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
          ...(settings.retry === undefined ? {} : { retry: settings.retry }),
          ...(settings.stall === undefined ? {} : { stall: settings.stall }),
        }),
      };
    }
    return cached.client;
  }

  return {
    id: providerId,
    name: settings.providerName ?? 'OpenAI Codex',
    adapter: 'openai-responses',
    streamMessage(request, options: LlmCallOptions = {}): AsyncIterable<StreamEvent> {
      return (async function* stream(): AsyncGenerator<StreamEvent> {
        let resolved: LlmProvider;
        try {
          resolved = await client();
        } catch (error) {
          yield { type: 'error', error: asLlmError(error, providerId) };
          return;
        }
        yield* resolved.streamMessage(request, options);
      })();
    },
    async createMessage(request, options: LlmCallOptions = {}) {
      return (await client()).createMessage(request, options);
    },
    async listModels(): Promise<ModelInfo[]> {
      return CODEX_MODELS.map((id) => ({ id }));
    },
  };
}

function asLlmError(error: unknown, providerId: string): LlmError {
  if (isLlmError(error)) return error;
  return createLlmError({
    reason: 'unknown',
    providerId,
    cause: error,
    message: `Provider "${providerId}" could not be set up: ${redactSecrets(error instanceof Error ? error.message : String(error))}`,
  });
}
