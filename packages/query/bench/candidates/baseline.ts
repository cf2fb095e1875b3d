import type { Candidate, PreparedTask } from '../candidate.js';
import { ANSWER, CALL_ID, echo, holdAt, stepText, type Task, TOOL_NAME, USER_PROMPT } from '../script.js';

type LoopMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; text: string; call?: { id: string; name: string; input: { text: string } } }
  | { role: 'tool'; callId: string; output: string };

/**
 * The floor: a plain `for` loop with an async scripted model and the same async tool, appending to
 * an array history. No events, no validation, no bookkeeping.
 */
export const baselineCandidate: Candidate = {
  id: 'for-loop',
  kind: 'baseline',
  description: 'a plain for-loop: await the scripted model, await the tool, push both to an array',
  prepare(task: Task): PreparedTask {
    const model = async (history: readonly LoopMessage[]): Promise<LoopMessage> => {
      const turn = (history.length - 1) >> 1;
      const waiting = holdAt(task.hold, turn);
      if (waiting !== undefined) await waiting;
      if (turn >= task.toolTurns) return { role: 'assistant', text: ANSWER };
      return {
        role: 'assistant',
        text: '',
        call: { id: CALL_ID[turn] as string, name: TOOL_NAME, input: { text: stepText(turn) } },
      };
    };
    const tool = async (input: { text: string }): Promise<string> => echo(input.text);
    return {
      async run() {
        const history: LoopMessage[] = [{ role: 'user', content: USER_PROMPT }];
        for (let turns = 1; ; turns++) {
          const reply = await model(history);
          history.push(reply);
          if (reply.role !== 'assistant' || reply.call === undefined) {
            return { turns, text: reply.role === 'assistant' ? reply.text : '', events: 0, history };
          }
          history.push({ role: 'tool', callId: reply.call.id, output: await tool(reply.call.input) });
        }
      },
    };
  },
};
