import { describeRowContract } from './row-contract.test.helpers.js';
import { volcengineProvider } from './volcengine.js';

// Volcengine Ark: /api/v3, thinking {type}, max_tokens, stream_options, reasoning_content on assistant messages.
// @see https://www.volcengine.com/docs/82379/1494384
describeRowContract(volcengineProvider, {
  model: 'doubao-seed-1-6-251015',
  path: '/api/v3/chat/completions',
  authHeader: 'authorization',
  streamedBody: {
    stream: true,
    max_tokens: 4096,
    thinking: { type: 'enabled' },
    stream_options: { include_usage: true },
  },
  absentFields: ['max_completion_tokens', 'enable_thinking', 'reasoning_effort'],
  reasoningEcho: 'reasoning_content',
});
