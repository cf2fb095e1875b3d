import type { RunRecord, RunStatus } from '../../runs/run-types.js';

/** A run as `GET /runs/:id`, `POST /sessions/:id/runs` (background) and `POST /runs/:id/cancel` send it. */
export type RunJson = RunRecord;
/** Where a run is in its life (`queued`, `running` are live). */
export type RunStatusJson = RunStatus;

/** `GET /sessions/:id/runs`. */
export interface RunListJson {
  runs: RunJson[];
}

/** `POST /runs/:id/messages`: the sequence number of the stored `message-injected` event. */
export interface InjectedMessageJson {
  seq: number;
}
