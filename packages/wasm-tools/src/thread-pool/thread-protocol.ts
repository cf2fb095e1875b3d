/** A task sent to a pooled worker thread. */
export interface ThreadTaskMessage {
  type: 'task';
  id: number;
  payload: unknown;
}

/** Asks the worker to stop the task cooperatively (its signal aborts); the host kills it after a grace period. */
export interface ThreadCancelMessage {
  type: 'cancel';
  id: number;
}

/** What the host sends to a worker. */
export type ThreadHostMessage = ThreadTaskMessage | ThreadCancelMessage;

/**
 * What a worker sends for one task: that the task's own work has begun (its deadline runs from
 * here), then its value or the message of the error its handler threw.
 */
export type ThreadReplyMessage =
  | { id: number; running: true }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };
