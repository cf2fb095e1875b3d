import { EventEmitter } from 'node:events';

/** A cross-run control message: cancel it, take the messages injected into it, or take a question's answer. */
export type RunControl = 'cancel' | 'inject' | 'answer';

/**
 * Wake-ups between the instances sharing a run log: "this run has new events" and control
 * messages for the instance executing a run. Only hints: the log is the truth, and every waiter
 * also re-reads it on a timer, so a lost signal delays but never loses anything.
 */
export interface RunSignals {
  /** Tells every instance (this one included) that a run has new events or a new status. */
  changed(runId: string): void;
  onChanged(runId: string, listener: () => void): () => void;
  /** Tells the instance executing the run (this one included). */
  control(runId: string, kind: RunControl): Promise<void>;
  onControl(listener: (runId: string, kind: RunControl) => void): () => void;
  /** Whether other processes may change the log (then a waiter cannot end on "not live here"). */
  readonly shared: boolean;
  close(): Promise<void>;
}

/** Signals inside one process. */
export class LocalRunSignals implements RunSignals {
  readonly shared: boolean = false;
  protected readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  changed(runId: string): void {
    this.emitter.emit(`changed:${runId}`);
  }

  onChanged(runId: string, listener: () => void): () => void {
    this.emitter.on(`changed:${runId}`, listener);
    return () => this.emitter.off(`changed:${runId}`, listener);
  }

  async control(runId: string, kind: RunControl): Promise<void> {
    this.emitter.emit('control', runId, kind);
  }

  onControl(listener: (runId: string, kind: RunControl) => void): () => void {
    this.emitter.on('control', listener);
    return () => this.emitter.off('control', listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
