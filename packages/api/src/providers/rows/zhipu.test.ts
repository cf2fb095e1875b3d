import { describeRowContract } from './row-contract.test.helpers.js';
import { zhipuProvider } from './zhipu.js';

// GLM's OpenAI-compatible API: max_tokens, thinking {type}, reasoning_content echoed, no stream_options.
// @see https://docs.z.ai/guides/capabilities/thinking-mode
describeRowContract(zhipuProvider, {
  model: 'glm-4.7',
  path: '/api/paas/v4/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096, thinking: { type: 'enabled' } },
  absentFields: ['max_completion_tokens', 'stream_options', 'reasoning_effort', 'enable_thinking'],
  reasoningEcho: 'reasoning_content',
});
