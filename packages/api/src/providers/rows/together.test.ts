import { describeRowContract } from './row-contract.test.helpers.js';
import { togetherProvider } from './together.js';

// Together: max_tokens, reasoning_effort, stream_options. @see https://docs.together.ai/docs/openai-api-compatibility
describeRowContract(togetherProvider, {
  model: 'openai/gpt-oss-120b',
  path: '/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096, reasoning_effort: 'low', stream_options: { include_usage: true } },
  absentFields: ['max_completion_tokens', 'thinking', 'enable_thinking'],
  reasoningEcho: 'none',
});

// DeepSeek V4 and Kimi K2.5+ think between tool calls: their reasoning goes back.
describeRowContract(togetherProvider, {
  model: 'moonshotai/Kimi-K2.6',
  path: '/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096 },
  reasoningEcho: 'reasoning_content',
});
