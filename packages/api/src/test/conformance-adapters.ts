import type { ProtocolId } from '@boxagnts/testkit';
import { createAnthropicMessagesProvider } from '../adapters/anthropic-messages/anthropic-provider.js';
import { createBedrockConverseProvider } from '../adapters/bedrock-converse/bedrock-provider.js';
import { createCohereProvider } from '../adapters/cohere-v2/cohere-provider.js';
import { createGeminiProvider } from '../adapters/gemini/gemini-provider.js';
import { createOllamaProvider } from '../adapters/ollama/ollama-provider.js';
import { createOpenAIChatProvider } from '../adapters/openai-chat/openai-chat-provider.js';
import { createOpenAIResponsesProvider } from '../adapters/openai-responses/openai-responses-provider.js';
import type { RetryOptions } from '../shared/retry-policy.js';
import type { StallOptions } from '../shared/stall-timeouts.js';
import type { LlmProvider } from '../spec/provider.js';

/** Options every conformance run passes to an adapter. */
export interface ConformanceOptions {
  retry?: RetryOptions;
  stall?: StallOptions | false;
}

/** One adapter pointed at the mock server, and the protocol the mock must speak to it. */
export interface AdapterUnderTest {
  name: string;
  protocol: ProtocolId;
  create(mockUrl: string, options?: ConformanceOptions): LlmProvider;
}

const key = 'conformance-test-key-0123456789';

/** Every protocol adapter, configured for the testkit mock on loopback. */
export const ADAPTERS: AdapterUnderTest[] = [
  {
    name: 'anthropic-messages',
    protocol: 'anthropic',
    create: (url, options) => createAnthropicMessagesProvider({ baseURL: url, apiKey: key, ...options }),
  },
  {
    name: 'openai-chat',
    protocol: 'openai-chat',
    create: (url, options) => createOpenAIChatProvider({ baseURL: `${url}/v1`, apiKey: key, ...options }),
  },
  {
    name: 'openai-responses',
    protocol: 'openai-responses',
    create: (url, options) => createOpenAIResponsesProvider({ baseURL: `${url}/v1`, apiKey: key, ...options }),
  },
  {
    name: 'gemini',
    protocol: 'gemini',
    create: (url, options) => createGeminiProvider({ baseURL: `${url}/v1beta`, apiKey: key, ...options }),
  },
  {
    name: 'bedrock-converse',
    protocol: 'bedrock',
    create: (url, options) =>
      createBedrockConverseProvider({
        baseURL: url,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDCONFORMANCE', secretAccessKey: key },
        ...options,
      }),
  },
  {
    name: 'cohere-v2',
    protocol: 'cohere',
    create: (url, options) => createCohereProvider({ baseURL: url, apiKey: key, ...options }),
  },
  {
    name: 'ollama',
    protocol: 'ollama',
    create: (url, options) => createOllamaProvider({ baseURL: url, ...options }),
  },
];
