/**
 * The scripted task every candidate runs: the model calls the `echo` tool once per tool turn (a
 * different input each turn, so loop detection never fires), then answers with text. Models are
 * stateless: each derives the turn from the history it is sent, so one model serves every run.
 * Strings are built once and shared; the objects a real provider would create per call (the
 * message, the parsed tool input) are created per call by every candidate's model.
 */

/** A model id in the @boxagnts/api catalogue, so cost and context-window lookups really happen. */
export const MODEL_ID = 'claude-sonnet-4-6';
/** The provider id the catalogue prices `MODEL_ID` under. */
export const PROVIDER_ID = 'anthropic';
export const TOOL_NAME = 'echo';
export const TOOL_DESCRIPTION = 'Echo the text back.';
export const USER_PROMPT = 'Echo each step with the echo tool, then say that you are done.';
export const ANSWER = 'All steps echoed.';
/** Tokens every scripted call reports: far below any compaction or budget threshold. */
export const INPUT_TOKENS = 100;
export const OUTPUT_TOKENS = 20;

/** Tool turns of the timed task and of the in-flight task (plus one answer turn each). */
export const TASK_TOOL_TURNS = 10;
/** Tool turns of the long-history task: 99 tool turns and the answer make 100 model calls. */
export const HISTORY_TOOL_TURNS = 99;

const MAX_STEPS = 256;

/** `step 0` ... : the text of each tool turn's input. */
export const STEP_TEXT: readonly string[] = Array.from({ length: MAX_STEPS }, (_, index) => `step ${index}`);
/** The JSON argument text of each tool turn's call. */
export const STEP_ARGUMENTS: readonly string[] = STEP_TEXT.map((text) => JSON.stringify({ text }));
/** The tool call id of each tool turn. */
export const CALL_ID: readonly string[] = STEP_TEXT.map((_, index) => `call_${index}`);

/** Counts tool executions across candidates, so each run can be checked to have run every tool turn. */
export const toolCounter = { calls: 0 };

/** The trivial tool every candidate runs: returns its input. */
export function echo(text: string): string {
  toolCounter.calls++;
  return text;
}

/** The text of a tool turn, failing loudly when a task asks for more steps than were built. */
export function stepText(turn: number): string {
  const text = STEP_TEXT[turn];
  if (text === undefined) throw new Error(`bench: the script has ${MAX_STEPS} steps, turn ${turn} asked for`);
  return text;
}

/**
 * Holds runs at one model call: the model of turn `turn` (0-based) calls `arrived()` and awaits
 * `released` before answering, so many runs can be kept in flight at the same point.
 */
export interface Hold {
  turn: number;
  arrived(): void;
  released: Promise<void>;
}

/** What a run is asked to do. */
export interface Task {
  /** Tool turns before the answer. */
  toolTurns: number;
  hold?: Hold;
}

/** Waits at the hold point when this is the held turn. */
export function holdAt(hold: Hold | undefined, turn: number): Promise<void> | undefined {
  if (hold === undefined || hold.turn !== turn) return undefined;
  hold.arrived();
  return hold.released;
}

/** A hold for `runs` runs: `all` resolves once every run has arrived; `release()` lets them go on. */
export function createHold(turn: number, runs: number): { hold: Hold; all: Promise<void>; release(): void } {
  let arrivedCount = 0;
  let allArrived!: () => void;
  let release!: () => void;
  const all = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hold: Hold = {
    turn,
    released,
    arrived() {
      arrivedCount++;
      if (arrivedCount === runs) allArrived();
    },
  };
  return { hold, all, release };
}
