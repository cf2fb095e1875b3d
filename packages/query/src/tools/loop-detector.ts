import type { ToolUseBlock } from '@boxagnts/api';
import type { ToolResult } from '@boxagnts/tools';

/** The longest cycle of calls noticed (A,B,C,A,B,C). */
const MAX_PERIOD = 4;

/**
 * Notices the model going round in circles: the identical call (same tool, same input) repeated,
 * or a short cycle of calls (A,B,A,B; up to 4 calls long) repeated. Once a loop is `threshold`
 * calls long (and a cycle has run at least twice) each result gets a note so the model changes
 * course; once it is `stopThreshold` calls long, `stop` says the run should end.
 */
export class LoopDetector {
  private readonly names: string[] = [];
  private readonly inputs: string[] = [];
  /** Per period p (index p - 1): trailing calls equal to the call p before them. */
  private readonly runs = new Array<number>(MAX_PERIOD).fill(0);

  constructor(
    private readonly threshold: number,
    private readonly stopThreshold = Number.POSITIVE_INFINITY,
  ) {}

  /** Returns the result, with a note appended while the calls loop; `stop` once the loop is too long. */
  check(call: ToolUseBlock, result: ToolResult): { result: ToolResult; looping: boolean; stop: boolean } {
    // Name and input compared apart: no joined key string per call.
    const input = JSON.stringify(call.input);
    const names = this.names;
    const count = names.length;
    let longest = 1;
    let period = 1;
    for (let p = 1; p <= MAX_PERIOD; p++) {
      const same = count >= p && names[count - p] === call.name && this.inputs[count - p] === input;
      const run = same ? (this.runs[p - 1] as number) + 1 : 0;
      this.runs[p - 1] = run;
      // A loop of period p is p calls plus every call that repeats the one p before it, and
      // counts only once the cycle has run twice (p = 1: two identical calls).
      const length = run + p;
      if (run >= p && length > longest) {
        longest = length;
        period = p;
      }
    }
    names.push(call.name);
    this.inputs.push(input);
    if (names.length > MAX_PERIOD * 2) {
      names.shift();
      this.inputs.shift();
    }
    if (longest < this.threshold || longest < 2 * period) return { result, looping: false, stop: false };
    const what =
      period === 1
        ? `this is the ${longest}th identical "${call.name}" call in a row with the same input, and it gives the same kind of result`
        : `your last ${longest} calls repeat the same cycle of ${period} calls with the same inputs`;
    const note = `Note: ${what}. Do not repeat it: change the input, try another approach, or explain what is blocking you.`;
    return {
      result: { ...result, content: [...result.content, { type: 'text', text: note }] },
      looping: true,
      stop: longest >= this.stopThreshold,
    };
  }
}
