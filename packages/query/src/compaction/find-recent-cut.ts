import type { Message } from '@boxagnts/api';

/**
 * Where the verbatim tail of a history starts: at the assistant message that opens the
 * `keepTurns`-th last turn. Cutting before an assistant message never separates a tool call from
 * its result (results follow their call). Returns 0 when the history is too short to cut.
 */
export function findRecentCut(messages: readonly Message[], keepTurns: number): number {
  let seen = 0;
  for (let index = messages.length - 1; index > 0; index--) {
    if ((messages[index] as Message).role !== 'assistant') continue;
    seen++;
    if (seen >= keepTurns) return index;
  }
  return 0;
}
