import type { ToolUseBlock } from '@boxagnts/api';
import type { ToolResult } from '@boxagnts/tools';

/**
 * Notices the model repeating the identical call (same tool, same input) turn after turn and says
 * so in the result, so it changes course instead of burning turns.
 */
export class LoopDetector {
  private lastName: string | undefined;
  private lastInput: string | undefined;
  private repeats = 0;

  constructor(private readonly threshold: number) {}

  /** Returns the result, with a note appended when the call repeats `threshold` times or more. */
  check(call: ToolUseBlock, result: ToolResult): { result: ToolResult; looping: boolean } {
    // Name and input compared apart: no joined key string per call.
    const input = JSON.stringify(call.input);
    this.repeats = call.name === this.lastName && input === this.lastInput ? this.repeats + 1 : 1;
    this.lastName = call.name;
    this.lastInput = input;
    if (this.repeats < this.threshold) return { result, looping: false };
    const note = `Note: this is the ${this.repeats}th identical "${call.name}" call in a row with the same input, and it gives the same kind of result. Do not repeat it: change the input, try another approach, or explain what is blocking you.`;
    return { result: { ...result, content: [...result.content, { type: 'text', text: note }] }, looping: true };
  }
}
