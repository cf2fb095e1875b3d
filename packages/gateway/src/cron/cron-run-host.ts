import type { Message } from '@boxagnts/api';

/** What the scheduler asks the run manager to start for one occurrence. */
export interface CronRunRequest {
  sessionId: string;
  agent?: string;
  model?: string;
  input: Message[];
  budgetUsd?: number;
  origin: { kind: 'cron'; jobId: string; scheduledFor: number };
  /** `cron:<jobId>:<ISO time>`: one run per occurrence across every gateway sharing the store. */
  dedupeKey: string;
  timeoutMs: number;
}

/** The part of a run record the scheduler reads. */
export interface CronRunRecord {
  id: string;
  sessionId: string;
  status: string;
  reason?: string | undefined;
  error?: string | undefined;
  costUsd?: number | undefined;
  startedAt?: number | undefined;
  finishedAt?: number | undefined;
}

/**
 * The run manager as the scheduler sees it (`RunManager` of this package fits): each occurrence is
 * an ordinary run, started with its origin, dedupe key and timeout, and followed through `subscribe`.
 */
export interface CronRunHost {
  start(request: CronRunRequest): Promise<CronRunRecord & { deduplicated?: boolean }>;
  subscribe(listener: (change: { type: 'started' | 'ended'; record: CronRunRecord }) => void): () => void;
  /** The run's current record; rejects for an unknown run. */
  get(runId: string): Promise<CronRunRecord>;
  cancel(runId: string): Promise<unknown>;
}

/** Whether a run status is final (not `queued` or `running`). */
export function isFinalRunStatus(status: string): boolean {
  return status !== 'queued' && status !== 'running';
}
