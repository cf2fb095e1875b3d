import type { Task } from './script.js';

/** What a finished run gives back: enough to check it did the task, and the history a caller keeps. */
export interface RunResult {
  /** Model calls made. */
  turns: number;
  /** The final answer text. */
  text: string;
  /** Events (or callbacks) the caller consumed. */
  events: number;
  /** What a caller keeps to continue the conversation (measured by the history benchmark). */
  history: unknown;
}

/** One run of a prepared task. */
export interface PreparedTask {
  run(): Promise<RunResult>;
}

/** A loop measured by the benchmark. */
export interface Candidate {
  /** Short id for `--candidate` and the table (`boxagnts`, `pi-agent-core`, ...). */
  id: string;
  kind: 'baseline' | 'ours' | 'peer';
  /** One line on what runs, printed under the table. */
  description: string;
  /**
   * Builds everything runs of `task` share (model, tools, configuration) once, outside any
   * measurement; `run()` then performs one run.
   */
  prepare(task: Task): Promise<PreparedTask> | PreparedTask;
}
