import { cerebrasProvider } from './cerebras.js';
import { describeRowContract } from './row-contract.test.helpers.js';

// Cerebras: max_completion_tokens, reasoning_effort for GPT-OSS, no penalties or parallel_tool_calls.
// @see https://inference-docs.cerebras.ai/resources/openai
describeRowContract(cerebrasProvider, {
  model: 'gpt-oss-120b',
  path: '/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_completion_tokens: 4096, reasoning_effort: 'low' },
  absentFields: ['max_tokens', 'parallel_tool_calls', 'frequency_penalty', 'presence_penalty', 'thinking'],
  reasoningEcho: 'none',
});
