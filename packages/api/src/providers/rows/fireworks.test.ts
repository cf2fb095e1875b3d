import { fireworksProvider } from './fireworks.js';
import { describeRowContract } from './row-contract.test.helpers.js';

// Fireworks: /inference/v1, max_tokens, reasoning_effort, reasoning_content echoed for interleaved thinking.
// @see https://fireworks.ai/docs/tools-sdks/openai-compatibility
describeRowContract(fireworksProvider, {
  model: 'accounts/fireworks/models/glm-4p7',
  path: '/inference/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096, reasoning_effort: 'low', stream_options: { include_usage: true } },
  absentFields: ['max_completion_tokens', 'thinking'],
  reasoningEcho: 'reasoning_content',
});
