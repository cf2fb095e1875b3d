import { createAnthropicMessagesProvider } from '../src/adapters/anthropic-messages/anthropic-provider.js';
import { createBedrockConverseProvider } from '../src/adapters/bedrock-converse/bedrock-provider.js';
import { createCohereProvider } from '../src/adapters/cohere-v2/cohere-provider.js';
import { createGeminiProvider } from '../src/adapters/gemini/gemini-provider.js';
import { createOllamaProvider } from '../src/adapters/ollama/ollama-provider.js';
import { createOpenAIChatProvider } from '../src/adapters/openai-chat/openai-chat-provider.js';
import { createOpenAIResponsesProvider } from '../src/adapters/openai-responses/openai-responses-provider.js';
import { adapterCandidate } from './adapter-candidate.js';
import type { Candidate } from './candidate.js';

const apiKey = 'bench-key';

/**
 * The adapters of packages/api measured by the bench, one entry each, with the settings a user of
 * that protocol would pass (the mock server's URL in the vendor's base-URL form).
 */
export const ADAPTERS: readonly Candidate[] = [
  adapterCandidate('anthropic', (url) =>
    createAnthropicMessagesProvider({ baseURL: url, apiKey, providerId: 'bench' }),
  ),
  adapterCandidate('openai-chat', (url) =>
    createOpenAIChatProvider({ baseURL: `${url}/v1`, apiKey, providerId: 'bench' }),
  ),
  adapterCandidate('openai-responses', (url) =>
    createOpenAIResponsesProvider({ baseURL: `${url}/v1`, apiKey, providerId: 'bench' }),
  ),
  adapterCandidate('gemini', (url) => createGeminiProvider({ baseURL: `${url}/v1beta`, apiKey, providerId: 'bench' })),
  adapterCandidate('bedrock', (url) =>
    createBedrockConverseProvider({ baseURL: url, region: 'us-east-1', apiKey, providerId: 'bench' }),
  ),
  adapterCandidate('cohere', (url) => createCohereProvider({ baseURL: url, apiKey, providerId: 'bench' })),
  adapterCandidate('ollama', (url) => createOllamaProvider({ baseURL: url, providerId: 'bench' })),
];
