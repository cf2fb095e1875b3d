import { describeRowContract } from './row-contract.test.helpers.js';
import { tencentHunyuanProvider } from './tencent-hunyuan.js';

// Hunyuan's OpenAI-compatible endpoint: /v1/chat/completions with a Bearer console key.
// @see https://cloud.tencent.com/document/product/1729/111007
describeRowContract(tencentHunyuanProvider, {
  model: 'hunyuan-turbos-latest',
  path: '/v1/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096 },
  absentFields: ['thinking', 'enable_thinking', 'reasoning_effort', 'stream_options'],
  reasoningEcho: 'none',
});
