import {
  type AgentEvent,
  type AgentLoopConfig,
  type AgentMessage,
  type AgentTool,
  runAgentLoop,
  type StreamFn,
} from '@mariozechner/pi-agent-core';
import type { Candidate, PreparedTask } from '../candidate.js';
import {
  ANSWER,
  CALL_ID,
  echo,
  holdAt,
  INPUT_TOKENS,
  MODEL_ID,
  OUTPUT_TOKENS,
  PROVIDER_ID,
  STEP_ARGUMENTS,
  stepText,
  type Task,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  USER_PROMPT,
} from '../script.js';

// pi-ai's types, reached through pi-agent-core's exports (pi-ai is not a dependency of this package).
type PiStream = Awaited<ReturnType<StreamFn>>;
type PiContext = Parameters<StreamFn>[1];
type PiAssistantMessage = Extract<AgentMessage, { role: 'assistant' }>;
type PiStreamEvent = Extract<AgentEvent, { type: 'message_update' }>['assistantMessageEvent'];

const MODEL: AgentLoopConfig['model'] = {
  id: MODEL_ID,
  name: 'Scripted (bench)',
  api: 'anthropic-messages',
  provider: PROVIDER_ID,
  baseUrl: 'http://127.0.0.1:9',
  reasoning: false,
  input: ['text'],
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  contextWindow: 200_000,
  maxTokens: 64_000,
};

/** A fresh assistant message per call, as pi-ai's providers build one. */
function newMessage(stopReason: 'toolUse' | 'stop'): PiAssistantMessage {
  return {
    role: 'assistant',
    content: [],
    api: MODEL.api,
    provider: MODEL.provider,
    model: MODEL_ID,
    usage: {
      input: INPUT_TOKENS,
      output: OUTPUT_TOKENS,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: INPUT_TOKENS + OUTPUT_TOKENS,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason,
    timestamp: Date.now(),
  };
}

/** The events of one call, in pi-ai's shape (each carries the partial message). */
function callEvents(turn: number, toolTurns: number): { events: PiStreamEvent[]; message: PiAssistantMessage } {
  if (turn < toolTurns) {
    const message = newMessage('toolUse');
    const toolCall = {
      type: 'toolCall' as const,
      id: CALL_ID[turn] as string,
      name: TOOL_NAME,
      arguments: { text: stepText(turn) },
    };
    message.content.push(toolCall);
    return {
      message,
      events: [
        { type: 'start', partial: message },
        { type: 'toolcall_start', contentIndex: 0, partial: message },
        { type: 'toolcall_delta', contentIndex: 0, delta: STEP_ARGUMENTS[turn] as string, partial: message },
        { type: 'toolcall_end', contentIndex: 0, toolCall, partial: message },
        { type: 'done', reason: 'toolUse', message },
      ],
    };
  }
  const message = newMessage('stop');
  message.content.push({ type: 'text', text: ANSWER });
  return {
    message,
    events: [
      { type: 'start', partial: message },
      { type: 'text_start', contentIndex: 0, partial: message },
      { type: 'text_delta', contentIndex: 0, delta: ANSWER, partial: message },
      { type: 'text_end', contentIndex: 0, content: ANSWER, partial: message },
      { type: 'done', reason: 'stop', message },
    ],
  };
}

/** A minimal stand-in for pi-ai's event stream: iterable events and `result()`. */
function scriptedStream(turn: number, toolTurns: number): PiStream {
  const { events, message } = callEvents(turn, toolTurns);
  return {
    async *[Symbol.asyncIterator]() {
      for (const event of events) yield event;
    },
    result: () => Promise.resolve(message),
  } as unknown as PiStream;
}

const echoTool: AgentTool = {
  name: TOOL_NAME,
  label: 'Echo',
  description: TOOL_DESCRIPTION,
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  } as unknown as AgentTool['parameters'],
  execute: async (_toolCallId, params) => ({
    content: [{ type: 'text', text: echo((params as { text: string }).text) }],
    details: {},
  }),
};

/** pi's default `convertToLlm` (the `Agent` class uses the same filter). */
function convertToLlm(messages: AgentMessage[]) {
  return messages.filter(
    (message) => message.role === 'user' || message.role === 'assistant' || message.role === 'toolResult',
  );
}

/** pi-agent-core's `runAgentLoop` with a scripted `streamFn`, every event consumed by the sink. */
export const piAgentCoreCandidate: Candidate = {
  id: 'pi-agent-core',
  kind: 'peer',
  description: '@mariozechner/pi-agent-core runAgentLoop with a scripted streamFn, events counted',
  prepare(task: Task): PreparedTask {
    const streamFn: StreamFn = (_model, context: PiContext) => {
      // History: the user message, then an assistant message and its tool result per turn.
      const turn = (context.messages.length - 1) >> 1;
      const waiting = holdAt(task.hold, turn);
      if (waiting !== undefined) return waiting.then(() => scriptedStream(turn, task.toolTurns));
      return scriptedStream(turn, task.toolTurns);
    };
    const config: AgentLoopConfig = { model: MODEL, convertToLlm };
    return {
      async run() {
        let events = 0;
        const messages = await runAgentLoop(
          [{ role: 'user', content: USER_PROMPT, timestamp: Date.now() }],
          { systemPrompt: '', messages: [], tools: [echoTool] },
          config,
          () => {
            events++;
          },
          undefined,
          streamFn,
        );
        const last = messages.at(-1);
        let text = '';
        let turns = 0;
        for (const message of messages) if (message.role === 'assistant') turns++;
        if (last?.role === 'assistant') {
          for (const block of last.content) if (block.type === 'text') text += block.text;
        }
        return { turns, text, events, history: messages };
      },
    };
  },
};
