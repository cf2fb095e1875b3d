import { generateText, type LanguageModel, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
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
  type Task,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  USER_PROMPT,
} from '../script.js';

// The provider spec's types, reached through `ai`'s exports (@ai-sdk/provider is not a dependency here).
type ModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<ModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<ModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<ModelV3['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
type UsageV3 = GenerateResult['usage'];

function usage(): UsageV3 {
  return {
    inputTokens: { total: INPUT_TOKENS, noCache: INPUT_TOKENS, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: OUTPUT_TOKENS, text: OUTPUT_TOKENS, reasoning: 0 },
  };
}

function generateResult(turn: number, toolTurns: number): GenerateResult {
  if (turn < toolTurns) {
    return {
      content: [
        {
          type: 'tool-call',
          toolCallId: CALL_ID[turn] as string,
          toolName: TOOL_NAME,
          input: STEP_ARGUMENTS[turn] as string,
        },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: usage(),
      warnings: [],
    };
  }
  return {
    content: [{ type: 'text', text: ANSWER }],
    finishReason: { unified: 'stop', raw: 'end_turn' },
    usage: usage(),
    warnings: [],
  };
}

function streamParts(turn: number, toolTurns: number): StreamPart[] {
  if (turn < toolTurns) {
    const id = CALL_ID[turn] as string;
    const input = STEP_ARGUMENTS[turn] as string;
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: `msg_${turn}`, modelId: MODEL_ID },
      { type: 'tool-input-start', id, toolName: TOOL_NAME },
      { type: 'tool-input-delta', id, delta: input },
      { type: 'tool-input-end', id },
      { type: 'tool-call', toolCallId: id, toolName: TOOL_NAME, input },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: usage() },
    ];
  }
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'msg_answer', modelId: MODEL_ID },
    { type: 'text-start', id: 't0' },
    { type: 'text-delta', id: 't0', delta: ANSWER },
    { type: 'text-end', id: 't0' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage() },
  ];
}

/** A LanguageModelV3 answering from the script at once (its own, not `MockLanguageModelV3`, which records every call). */
function scriptedModel(task: Task): ModelV3 {
  // Prompt: the user message, then an assistant message and its tool message per turn.
  const turnOf = (options: CallOptions) => (options.prompt.length - 1) >> 1;
  return {
    specificationVersion: 'v3',
    provider: PROVIDER_ID,
    modelId: MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const turn = turnOf(options);
      const waiting = holdAt(task.hold, turn);
      if (waiting !== undefined) await waiting;
      return generateResult(turn, task.toolTurns);
    },
    async doStream(options) {
      const turn = turnOf(options);
      const waiting = holdAt(task.hold, turn);
      if (waiting !== undefined) await waiting;
      const parts = streamParts(turn, task.toolTurns);
      return {
        stream: new ReadableStream<StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

const echoTool = tool({
  description: TOOL_DESCRIPTION,
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => echo(text),
});

/** The AI SDK's `generateText` tool loop (`stopWhen: stepCountIs(...)`), steps counted in `onStepFinish`. */
export const generateTextCandidate: Candidate = {
  id: 'ai:generateText',
  kind: 'peer',
  description: 'AI SDK generateText with tools and stopWhen, a scripted LanguageModelV3, onStepFinish counted',
  prepare(task: Task): PreparedTask {
    const model = scriptedModel(task);
    const stopWhen = stepCountIs(task.toolTurns + 2);
    return {
      async run() {
        let events = 0;
        const result = await generateText({
          model,
          tools: { [TOOL_NAME]: echoTool },
          prompt: USER_PROMPT,
          stopWhen,
          onStepFinish: () => {
            events++;
          },
        });
        return { turns: result.steps.length, text: result.text, events, history: result.response.messages };
      },
    };
  },
};

/** The AI SDK's `streamText` tool loop, every part of `fullStream` consumed. */
export const streamTextCandidate: Candidate = {
  id: 'ai:streamText',
  kind: 'peer',
  description: 'AI SDK streamText with tools and stopWhen, a scripted LanguageModelV3, fullStream consumed',
  prepare(task: Task): PreparedTask {
    const model = scriptedModel(task);
    const stopWhen = stepCountIs(task.toolTurns + 2);
    return {
      async run() {
        let events = 0;
        const result = streamText({ model, tools: { [TOOL_NAME]: echoTool }, prompt: USER_PROMPT, stopWhen });
        for await (const _part of result.fullStream) events++;
        const [steps, text, response] = await Promise.all([result.steps, result.text, result.response]);
        return { turns: steps.length, text, events, history: response.messages };
      },
    };
  },
};
