import type { ContentBlock, Message } from '@boxagnts/api';
import { GatewayError } from '../gateway-error.js';

/** What a run is given: a prompt, one user message's content blocks, or whole messages. */
export type AgentInput = string | Message | readonly Message[];

/** The messages an {@link AgentInput} adds to a conversation; refuses empty or non-user input. */
export function inputMessages(input: AgentInput): Message[] {
  const messages: Message[] =
    typeof input === 'string'
      ? [{ role: 'user', content: input }]
      : Array.isArray(input)
        ? [...(input as readonly Message[])]
        : [input as Message];
  if (messages.length === 0) {
    throw new GatewayError({
      reason: 'invalid-request',
      message: 'The run input is empty: pass a prompt or at least one user message.',
    });
  }
  const last = messages[messages.length - 1] as Message;
  if (last.role !== 'user') {
    throw new GatewayError({
      reason: 'invalid-request',
      message: `The run input must end with a user message, not "${last.role}": add the user's prompt last.`,
    });
  }
  if (typeof last.content === 'string' ? last.content.trim() === '' : (last.content as ContentBlock[]).length === 0) {
    throw new GatewayError({ reason: 'invalid-request', message: 'The user message is empty: write a prompt.' });
  }
  return messages;
}
