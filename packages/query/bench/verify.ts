import type { PreparedTask, RunResult } from './candidate.js';
import { ANSWER, toolCounter } from './script.js';

/** A run that did not do the scripted task; the message says what differed. */
export class WrongRunError extends Error {
  override name = 'WrongRunError';
}

/** Throws unless `result` is a complete run of `toolTurns` tool turns and the answer. */
export function checkResult(result: RunResult, toolTurns: number): void {
  if (result.turns !== toolTurns + 1) {
    throw new WrongRunError(`made ${result.turns} model calls, the task needs ${toolTurns + 1}`);
  }
  if (result.text !== ANSWER)
    throw new WrongRunError(`answered ${JSON.stringify(result.text)}, not the script's answer`);
}

/** Runs once and checks the run, including that the tool ran once per tool turn. */
export async function checkedRun(prepared: PreparedTask, toolTurns: number): Promise<RunResult> {
  const before = toolCounter.calls;
  const result = await prepared.run();
  checkResult(result, toolTurns);
  const calls = toolCounter.calls - before;
  if (calls !== toolTurns) throw new WrongRunError(`ran the tool ${calls} times, the task needs ${toolTurns}`);
  return result;
}

/** A short description of any error, for the table. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
