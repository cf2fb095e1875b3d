import { describeRowContract } from './row-contract.test.helpers.js';
import { siliconflowProvider } from './siliconflow.js';

// SiliconFlow: max_tokens, enable_thinking + thinking_budget. @see https://docs.siliconflow.cn/docs/api/chat-completions-post
describeRowContract(siliconflowProvider, {
  model: 'deepseek-ai/DeepSeek-V3.2',
  path: '/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096, enable_thinking: true, thinking_budget: 2048 },
  absentFields: ['max_completion_tokens', 'thinking', 'reasoning_effort'],
  reasoningEcho: 'none',
});

// The GLM and Kimi models it hosts think between tool calls: their reasoning goes back.
describeRowContract(siliconflowProvider, {
  model: 'zai-org/GLM-4.7',
  path: '/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096 },
  reasoningEcho: 'reasoning_content',
});
