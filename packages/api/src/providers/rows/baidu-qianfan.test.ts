import { baiduQianfanProvider } from './baidu-qianfan.js';
import { describeRowContract } from './row-contract.test.helpers.js';

// Qianfan v2: /v2/chat/completions with a Bearer API key; no thinking switch mapped.
// @see https://cloud.baidu.com/doc/qianfan/s/Hmh4suq26
describeRowContract(baiduQianfanProvider, {
  model: 'ernie-4.0-turbo-8k',
  path: '/v2/chat/completions',
  authHeader: 'authorization',
  streamedBody: { stream: true, max_tokens: 4096 },
  absentFields: ['thinking', 'enable_thinking', 'reasoning_effort', 'max_completion_tokens'],
  reasoningEcho: 'none',
});
