import type { ModelCallRecord, QueryEvent, SessionStore } from '@boxagnts/query';
import type { UsageStore } from '@boxagnts/workspace';

/** What {@link createUsageRecorder} returns: the store to hand the loop and the event hook of the run. */
export interface UsageRecorder {
  /** The session store for `runQuery`, with a `recordUsage` that writes to the workspace's usage table. */
  store: SessionStore;
  /** Feed every top-level event of the run; returns once any pending record is written. */
  observe(event: QueryEvent): Promise<void>;
}

/**
 * Records every model call of a run exactly once. When the loop reports calls through the store's
 * `recordUsage` seam, those records are written and the run's own `usage` events are ignored; a
 * loop that does not (yet) call the seam is covered by recording each `usage` event at the next
 * turn start or at the end, by which time the loop would have used the seam for that call.
 */
export function createUsageRecorder(
  sessions: SessionStore,
  usage: UsageStore,
  context: { sessionId: string; provider: string; agent: string },
): UsageRecorder {
  let loopRecords = 0;
  let queued: ModelCallRecord[] = [];
  const write = (record: ModelCallRecord) =>
    usage.record({
      sessionId: record.sessionId,
      provider: record.provider,
      model: record.model,
      ...(record.agent === undefined ? {} : { agent: record.agent }),
      ...(record.subAgent === undefined ? {} : { subAgent: record.subAgent }),
      purpose: record.purpose,
      usage: record.usage,
      ...(record.costUsd === undefined ? {} : { costUsd: record.costUsd }),
      createdAt: record.createdAt ?? Date.now(),
    });
  const store: SessionStore = {
    append: (sessionId, entries) => sessions.append(sessionId, entries),
    load: (sessionId) => sessions.load(sessionId),
    async recordUsage(record) {
      loopRecords++;
      queued = [];
      await (sessions.recordUsage === undefined ? write(record) : sessions.recordUsage(record));
    },
    // Sub-agents store their transcripts as child sessions only when the store offers this seam.
    ...(sessions.createChildSession === undefined
      ? {}
      : { createChildSession: (child) => sessions.createChildSession?.(child) ?? Promise.resolve() }),
  };
  async function flush(): Promise<void> {
    const pending = queued;
    queued = [];
    if (loopRecords > 0) return;
    for (const record of pending) await write(record);
  }
  return {
    store,
    async observe(event) {
      if (event.type === 'usage' && loopRecords === 0) {
        queued.push({
          sessionId: context.sessionId,
          provider: context.provider,
          model: event.model,
          agent: context.agent,
          purpose: 'turn',
          usage: event.usage,
          ...(event.costUsd === undefined ? {} : { costUsd: event.costUsd }),
          createdAt: Date.now(),
        });
      } else if (event.type === 'turn-start' || event.type === 'done') {
        await flush();
      }
    },
  };
}
