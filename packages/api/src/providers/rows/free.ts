import type { ProviderEntry } from '../provider-entry.js';

/**
 * BoxAgnts' `free` provider as a provider chain: the free tiers of these upstreams, tried in this
 * order (BoxAgnts' `FREE_CATALOG`, fastest and most generous first), each with its default model.
 * Only upstreams with a key configured take part. A request falls over to the next upstream on any
 * failure before the answer starts except an invalid request or a content filter; once the first
 * content event has arrived, there is no fallover. `free/auto` (or `auto`) uses each upstream's
 * default model; `free/<upstream>/<model>` tries that upstream first with that model.
 */
export const freeProvider: ProviderEntry = {
  id: 'free',
  name: 'Free tiers (provider chain)',
  adapter: 'provider-chain',
  apiKeyEnvVars: [],
  authStyle: 'none',
  docsURL: 'https://github.com/guyoung/boxagnts',
  notes:
    'A chain of free tiers (groq, cerebras, google, mistral, sambanova, nvidia, cohere, openrouter, opencode-zen, zai, zhipuai); configured when one of them has a key.',
  defaultModel: 'auto',
  settings: {
    upstreams: [
      { provider: 'groq', model: 'llama-3.3-70b-versatile' },
      { provider: 'cerebras', model: 'qwen-3-235b-a22b-instruct-2507' },
      { provider: 'google', model: 'gemini-2.5-flash' },
      { provider: 'mistral', model: 'mistral-large-latest' },
      { provider: 'sambanova', model: 'Meta-Llama-3.3-70B-Instruct' },
      { provider: 'nvidia', model: 'meta/llama-3.3-70b-instruct' },
      { provider: 'cohere', model: 'command-r-plus' },
      { provider: 'openrouter', model: 'openrouter/free' },
      { provider: 'opencode-zen', model: 'minimax-m2.5-free', aliases: ['zen'] },
      { provider: 'zai', model: 'glm-4.6' },
      { provider: 'zhipuai', model: 'glm-4.5' },
    ],
  },
};
