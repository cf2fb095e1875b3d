import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { z } from 'zod';
import type { Candidate, PreparedTask } from '../candidate.js';
import {
  ANSWER,
  CALL_ID,
  echo,
  holdAt,
  INPUT_TOKENS,
  OUTPUT_TOKENS,
  STEP_ARGUMENTS,
  type Task,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  USER_PROMPT,
} from '../script.js';

function response(turn: number, toolTurns: number): ModelResponse {
  const usage = new Usage({
    requests: 1,
    inputTokens: INPUT_TOKENS,
    outputTokens: OUTPUT_TOKENS,
    totalTokens: INPUT_TOKENS + OUTPUT_TOKENS,
  });
  if (turn < toolTurns) {
    return {
      usage,
      responseId: `resp_${turn}`,
      output: [
        {
          type: 'function_call',
          id: `fc_${turn}`,
          callId: CALL_ID[turn] as string,
          name: TOOL_NAME,
          arguments: STEP_ARGUMENTS[turn] as string,
          status: 'completed',
        },
      ],
    };
  }
  return {
    usage,
    responseId: 'resp_answer',
    output: [
      {
        type: 'message',
        id: 'msg_answer',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: ANSWER }],
      },
    ],
  };
}

/** A `Model` answering from the script at once through `getResponse` (what non-streamed `run()` calls). */
function scriptedModel(task: Task): Model {
  return {
    async getResponse(request: ModelRequest) {
      // Input: the user message, then a function call and its output per turn.
      const turn = typeof request.input === 'string' ? 0 : (request.input.length - 1) >> 1;
      const waiting = holdAt(task.hold, turn);
      if (waiting !== undefined) await waiting;
      return response(turn, task.toolTurns);
    },
    // biome-ignore lint/correctness/useYield: the bench runs run() without streaming; this is never called.
    async *getStreamedResponse() {
      throw new Error('the bench runs @openai/agents without streaming');
    },
  };
}

const echoTool = tool({
  name: TOOL_NAME,
  description: TOOL_DESCRIPTION,
  parameters: z.object({ text: z.string() }),
  execute: async ({ text }) => echo(text),
});

/** @openai/agents `Runner.run()` (non-streamed) with a custom `Model`; tracing off (nothing leaves the process). */
export const openaiAgentsCandidate: Candidate = {
  id: 'openai-agents',
  kind: 'peer',
  description: '@openai/agents Runner.run (not streamed) with a scripted Model, tracing disabled',
  prepare(task: Task): PreparedTask {
    setTracingDisabled(true);
    const agent = new Agent({ name: 'bench', instructions: '', model: scriptedModel(task), tools: [echoTool] });
    const runner = new Runner({ tracingDisabled: true });
    const maxTurns = task.toolTurns + 2;
    return {
      async run() {
        const result = await runner.run(agent, USER_PROMPT, { maxTurns });
        return {
          turns: result.rawResponses.length,
          text: String(result.finalOutput ?? ''),
          events: result.newItems.length,
          history: result.history,
        };
      },
    };
  },
};
