import { type LlmProvider, type Message, MessageAssembler, toLlmError, type Usage } from '@boxagnts/api';
import { callOptions } from '../run-signal.js';
import type { SurvivingFacts } from './surviving-facts.js';

const SUMMARY_SYSTEM = [
  "You write the summary that replaces the earlier part of an agent's conversation, so the agent can go on with its task.",
  'You have no tools in this call: do not call any tool, answer with text only.',
  "Cover: the task and the user's requests and constraints; decisions made and why; what was done (files created or changed, commands run, results); what failed and what was learned; what remains to do next.",
  'Be specific (names, paths, values, errors). Write at most about 600 words.',
].join(' ');

const RETRY_NOTE =
  'Your previous answer tried to call a tool. Tools are not available in this call. Answer with the summary as plain text only.';

/** One model call the summary made (each costs, also one whose answer was rejected). */
export interface SummaryCall {
  model: string;
  usage: Usage;
}

/** The summary text or why there is none, with the calls it took. */
export type SummaryResult =
  | { ok: true; text: string; calls?: SummaryCall[] }
  | { ok: false; error: string; calls?: SummaryCall[] };

function transcript(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      lines.push(`${message.role.toUpperCase()}: ${message.content}`);
      continue;
    }
    for (const block of message.content) {
      if (block.type === 'text') lines.push(`${message.role.toUpperCase()}: ${block.text}`);
      else if (block.type === 'tool_use')
        lines.push(`TOOL CALL ${block.name}: ${JSON.stringify(block.input).slice(0, 500)}`);
      else if (block.type === 'tool_result') {
        const text =
          typeof block.content === 'string'
            ? block.content
            : block.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
        lines.push(`TOOL RESULT${block.isError ? ' (error)' : ''}: ${text.slice(0, 1500)}`);
      }
    }
  }
  return lines.join('\n');
}

/**
 * Summarises older turns with an auxiliary model call that offers no tools. If the model still
 * calls a tool, the answer is rejected and the call retried once with a firmer instruction.
 */
export async function summarizeConversation(input: {
  provider: LlmProvider;
  model: string;
  messages: readonly Message[];
  facts: SurvivingFacts;
  signal: AbortSignal;
  /** Consulted before a retry: false stops (the run's budget is spent). */
  mayCall?: () => boolean;
}): Promise<SummaryResult> {
  const base = `Summarise this conversation:\n\n${transcript(input.messages)}`;
  const calls: SummaryCall[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0 && input.mayCall?.() === false) {
      return { ok: false, error: 'the budget does not allow another summary call', calls };
    }
    const request: Message[] = [{ role: 'user', content: attempt === 0 ? base : `${base}\n\n${RETRY_NOTE}` }];
    const assembler = new MessageAssembler();
    try {
      for await (const event of input.provider.streamMessage(
        { model: input.model, system: SUMMARY_SYSTEM, messages: request, maxOutputTokens: 2048 },
        callOptions(input.signal),
      )) {
        assembler.push(event);
        if (assembler.done) break;
      }
    } catch (error) {
      return { ok: false, error: toLlmError(error).message, calls };
    }
    if (assembler.error) return { ok: false, error: assembler.error.message, calls };
    const response = assembler.toResponse();
    calls.push({ model: response.model ?? input.model, usage: response.usage });
    if (response.message.content.some((block) => block.type === 'tool_use')) continue;
    const text = response.message.content
      .filter((block) => block.type === 'text')
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('');
    if (text.trim() === '') return { ok: false, error: 'the summary was empty', calls };
    return { ok: true, text, calls };
  }
  return { ok: false, error: 'the model called a tool twice instead of summarising', calls };
}
