import type { Message } from '@boxagnts/api';
import { z } from 'zod';
import { GatewayError } from '../gateway-error.js';

const part = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.string() }).passthrough(),
]);
const content = z.union([z.string(), z.array(part), z.null()]);

/** The body of `POST /v1/chat/completions` the gateway reads (other OpenAI fields are accepted and ignored). */
export const chatCompletionRequestSchema = z
  .object({
    model: z.string().min(1, 'must name an agent (see GET /v1/models)'),
    messages: z
      .array(
        z
          .object({
            role: z.enum(['system', 'developer', 'user', 'assistant', 'tool'], {
              error: 'must be system, developer, user, assistant or tool',
            }),
            content: content.optional(),
          })
          .passthrough(),
      )
      .min(1, 'must hold at least one message'),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).passthrough().nullable().optional(),
    max_tokens: z.number().int().positive().optional(),
    max_completion_tokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    user: z.string().optional(),
  })
  .passthrough();

/** The parsed request. */
export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema>;

function textOf(value: z.output<typeof content> | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return value
    .map((item) => {
      if (item.type !== 'text') {
        throw new GatewayError({
          reason: 'invalid-request',
          message: `Content parts of type "${item.type}" are not supported here: send text parts.`,
        });
      }
      return (item as { text: string }).text;
    })
    .join('');
}

/**
 * OpenAI chat messages as BoxAgnts messages: system and developer messages become the run's
 * appended system prompt; user and assistant text become the conversation. Client-side tool
 * messages are refused: the agent's tools run on the server.
 */
export function toAgentMessages(request: ChatCompletionRequest): { system: string | undefined; messages: Message[] } {
  const system: string[] = [];
  const messages: Message[] = [];
  for (const [index, message] of request.messages.entries()) {
    if (message.role === 'tool' || (message as { tool_calls?: unknown }).tool_calls !== undefined) {
      throw new GatewayError({
        reason: 'invalid-request',
        message: `messages.${index}: tool calls and tool results are not accepted; the agent runs its own tools on the server.`,
      });
    }
    const text = textOf(message.content);
    if (message.role === 'system' || message.role === 'developer') system.push(text);
    else if (text !== '') messages.push({ role: message.role, content: text } as Message);
  }
  if (messages.at(-1)?.role !== 'user') {
    throw new GatewayError({ reason: 'invalid-request', message: 'messages must end with a user message with text.' });
  }
  return { system: system.length === 0 ? undefined : system.join('\n\n'), messages };
}
