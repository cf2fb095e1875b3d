import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { Candidate } from './candidate.js';
import type { AssembledText } from './protocols.js';

const API_KEY = 'bench-key';
const PROMPT = 'Write a long answer.';

/** `@anthropic-ai/sdk` as its README streams: `messages.create({stream: true})`, iterated. */
export const anthropicSdk: Candidate = {
  id: 'sdk:anthropic',
  kind: 'sdk',
  protocols: ['anthropic'],
  setup(serverUrl) {
    const client = new Anthropic({ baseURL: serverUrl, apiKey: API_KEY, maxRetries: 0 });
    return {
      async run(target) {
        const stream = await client.messages.create({
          model: target.model,
          max_tokens: 4096,
          messages: [{ role: 'user', content: PROMPT }],
          stream: true,
        });
        const assembled: AssembledText = { text: '', reasoning: '' };
        for await (const event of stream) {
          if (event.type !== 'content_block_delta') continue;
          if (event.delta.type === 'text_delta') assembled.text += event.delta.text;
          else if (event.delta.type === 'thinking_delta') assembled.reasoning += event.delta.thinking;
        }
        return assembled;
      },
    };
  },
};

/** `openai` Chat Completions streaming: `chat.completions.create({stream: true})`, iterated. */
export const openaiChatSdk: Candidate = {
  id: 'sdk:openai-chat',
  kind: 'sdk',
  protocols: ['openai-chat'],
  setup(serverUrl) {
    const client = new OpenAI({ baseURL: `${serverUrl}/v1`, apiKey: API_KEY, maxRetries: 0 });
    return {
      async run(target) {
        const stream = await client.chat.completions.create({
          model: target.model,
          messages: [{ role: 'user', content: PROMPT }],
          stream: true,
        });
        const assembled: AssembledText = { text: '', reasoning: '' };
        for await (const chunk of stream) {
          const delta = chunk.choices[0]?.delta;
          if (delta === undefined) continue;
          assembled.text += delta.content ?? '';
          // Reasoning is a vendor extension the SDK's types do not name.
          const extra = delta as { reasoning_content?: unknown; reasoning?: unknown };
          const reasoning = extra.reasoning_content ?? extra.reasoning;
          if (typeof reasoning === 'string') assembled.reasoning += reasoning;
        }
        return assembled;
      },
    };
  },
};

/** `openai` Responses streaming: `responses.create({stream: true})`, iterated. */
export const openaiResponsesSdk: Candidate = {
  id: 'sdk:openai-responses',
  kind: 'sdk',
  protocols: ['openai-responses'],
  setup(serverUrl) {
    const client = new OpenAI({ baseURL: `${serverUrl}/v1`, apiKey: API_KEY, maxRetries: 0 });
    return {
      async run(target) {
        const stream = await client.responses.create({ model: target.model, input: PROMPT, stream: true });
        const assembled: AssembledText = { text: '', reasoning: '' };
        for await (const event of stream) {
          if (event.type === 'response.output_text.delta') assembled.text += event.delta;
          else if (
            event.type === 'response.reasoning_summary_text.delta' ||
            event.type === 'response.reasoning_text.delta'
          )
            assembled.reasoning += event.delta;
        }
        return assembled;
      },
    };
  },
};
