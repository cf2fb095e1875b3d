import { describeRowContract } from './row-contract.test.helpers.js';
import { zhipuAnthropicProvider } from './zhipu-anthropic.js';

// GLM over Anthropic Messages: Bearer key (ANTHROPIC_AUTH_TOKEN), unsigned thinking replayed.
// @see https://docs.z.ai/devpack/tool/claude
describeRowContract(zhipuAnthropicProvider, {
  model: 'glm-4.7',
  path: '/api/anthropic/v1/messages',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } },
  absentFields: ['temperature'],
  headers: { 'anthropic-version': '2023-06-01' },
  reasoningEcho: 'thinking-block',
});
