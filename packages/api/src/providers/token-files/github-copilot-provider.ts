import { createOpenAIChatProvider } from '../../adapters/openai-chat/openai-chat-provider.js';
import type { OpenAIChatSettings } from '../../adapters/openai-chat/openai-chat-settings.js';
import { createOpenAIResponsesProvider } from '../../adapters/openai-responses/openai-responses-provider.js';
import type { AdapterSettings } from '../../shared/adapter-settings.js';
import { createLlmError } from '../../spec/create-llm-error.js';
import { isLlmError, type LlmError } from '../../spec/llm-error.js';
import { MissingApiKeyError } from '../../spec/llm-error-classes.js';
import type { Message } from '../../spec/message.js';
import type { LlmCallOptions, LlmProvider } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import type { StreamEvent } from '../../spec/stream-event.js';
import { boxagntsStateDir, readBoxAgntsAuthToken } from './boxagnts-token-files.js';

/** GitHub Copilot's API (OpenAI Chat Completions, and the Responses API for GPT-5-class models). */
export const GITHUB_COPILOT_DEFAULT_BASE_URL = 'https://api.githubcopilot.com';

/** Settings of {@link createGitHubCopilotProvider}. */
export interface GitHubCopilotSettings extends AdapterSettings {
  /**
   * The folder of BoxAgnts' `auth.json` (its `github-copilot` entry is read when no key is given or
   * set in the environment). Default `./.boxagnts`, from the working directory when a request is made.
   */
  tokenDir?: string;
  /** Chat Completions quirks, merged over Copilot's. */
  compat?: OpenAIChatSettings['compat'];
}

/**
 * Whether a Copilot model is served by the Responses API: GPT-5 and later, except `gpt-5-mini`, as
 * Copilot (and BoxAgnts, which follows OpenCode) route them; everything else uses Chat Completions.
 */
export function copilotUsesResponsesApi(model: string): boolean {
  const id = model.trim().toLowerCase();
  if (id.startsWith('gpt-5-mini')) return false;
  const major = /^gpt-(\d+)/.exec(id)?.[1];
  return major !== undefined && Number(major) >= 5;
}

/**
 * The per-request headers Copilot wants: `Openai-Intent: conversation-edits`, `x-initiator` (`user`
 * when the last message is the user's own words, `agent` when it only carries tool results or is
 * not the user's), and `Copilot-Vision-Request: true` when any message holds an image.
 */
export function copilotRequestHeaders(request: LlmRequest): Record<string, string> {
  const last = request.messages[request.messages.length - 1];
  const headers: Record<string, string> = {
    'openai-intent': 'conversation-edits',
    'x-initiator': isUserTurn(last) ? 'user' : 'agent',
  };
  if (request.messages.some(hasImage)) headers['copilot-vision-request'] = 'true';
  return headers;
}

/**
 * An {@link LlmProvider} for GitHub Copilot. The GitHub token is the explicit `apiKey`, else the
 * first of `apiKeyEnvVars` (default `GITHUB_TOKEN`), else the `github-copilot` entry of BoxAgnts'
 * `<tokenDir>/auth.json` (its OAuth `refresh` token, else `access`, or an API key), read when a
 * request is made. It is sent as `Authorization: Bearer` to `api.githubcopilot.com`, with Copilot's
 * routing headers; GPT-5-class models go to `/responses`, the others to `/chat/completions`.
 *
 * @example
 * const copilot = createGitHubCopilotProvider(); // GITHUB_TOKEN, or BoxAgnts' .boxagnts/auth.json
 * const response = await copilot.createMessage({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'Hi' }] });
 */
export function createGitHubCopilotProvider(settings: GitHubCopilotSettings = {}): LlmProvider {
  const providerId = settings.providerId ?? 'github-copilot';
  const envVarNames = settings.apiKeyEnvVars ?? ['GITHUB_TOKEN'];
  const baseURL = (settings.baseURL ?? GITHUB_COPILOT_DEFAULT_BASE_URL).replace(/\/+$/, '');
  let cached: { token: string; chat: LlmProvider; responses: LlmProvider } | undefined;

  async function token(): Promise<string> {
    const explicit = settings.apiKey?.trim();
    if (explicit !== undefined && explicit !== '') return explicit;
    const env = settings.env ?? process.env;
    for (const name of envVarNames) {
      const value = env[name]?.trim();
      if (value !== undefined && value !== '') return value;
    }
    const dir = boxagntsStateDir(settings.tokenDir);
    const stored = await readBoxAgntsAuthToken(dir, providerId);
    if (stored !== undefined) return stored;
    const error = new MissingApiKeyError({ providerId, envVarNames });
    throw createLlmError({
      reason: 'auth',
      providerId,
      isRetryable: false,
      message: `${error.message} BoxAgnts' login (a "${providerId}" entry in ${dir}/auth.json) was not found either.`,
    });
  }

  async function clients() {
    const key = await token();
    if (cached?.token !== key) {
      const common = {
        providerId,
        providerName: settings.providerName ?? 'GitHub Copilot',
        baseURL,
        apiKey: key,
        headers: { 'user-agent': 'boxagnts-ts', ...settings.headers },
        ...(settings.dispatcher === undefined ? {} : { dispatcher: settings.dispatcher }),
        ...(settings.retry === undefined ? {} : { retry: settings.retry }),
        ...(settings.stall === undefined ? {} : { stall: settings.stall }),
      };
      cached = {
        token: key,
        chat: createOpenAIChatProvider({
          ...common,
          compat: { maxTokensField: 'max_tokens', supportsStreamOptions: true, ...settings.compat },
        }),
        responses: createOpenAIResponsesProvider(common),
      };
    }
    return cached;
  }

  function callOptions(request: LlmRequest, options: LlmCallOptions): LlmCallOptions {
    return { ...options, headers: { ...copilotRequestHeaders(request), ...options.headers } };
  }

  return {
    id: providerId,
    name: settings.providerName ?? 'GitHub Copilot',
    adapter: 'openai-chat',
    streamMessage(request, options = {}): AsyncIterable<StreamEvent> {
      return (async function* stream(): AsyncGenerator<StreamEvent> {
        let client: LlmProvider;
        try {
          const both = await clients();
          client = copilotUsesResponsesApi(request.model) ? both.responses : both.chat;
        } catch (error) {
          yield { type: 'error', error: asLlmError(error, providerId) };
          return;
        }
        yield* client.streamMessage(request, callOptions(request, options));
      })();
    },
    async createMessage(request, options = {}) {
      const both = await clients();
      const client = copilotUsesResponsesApi(request.model) ? both.responses : both.chat;
      return client.createMessage(request, callOptions(request, options));
    },
    async listModels(options = {}) {
      return (await clients()).chat.listModels(options);
    },
  };
}

function isUserTurn(message: Message | undefined): boolean {
  if (message === undefined || message.role !== 'user') return false;
  if (typeof message.content === 'string') return true;
  return message.content.some((block) => block.type !== 'tool_result');
}

function hasImage(message: Message): boolean {
  if (typeof message.content === 'string') return false;
  return message.content.some(
    (block) =>
      block.type === 'image' ||
      (block.type === 'tool_result' &&
        Array.isArray(block.content) &&
        block.content.some((part: { type: string }) => part.type === 'image')),
  );
}

function asLlmError(error: unknown, providerId: string): LlmError {
  if (isLlmError(error)) return error;
  return createLlmError({
    reason: 'unknown',
    providerId,
    cause: error,
    message: `Provider "${providerId}" could not be set up: ${error instanceof Error ? error.message : String(error)}`,
  });
}
