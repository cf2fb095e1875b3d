import type { Usage } from '@boxagnts/api';
import {
  type ChildSessionInfo,
  createMemorySessionStore,
  type ModelCallRecord,
  type QueryEvent,
} from '@boxagnts/query';
import type { UsageRecord, UsageStore } from '@boxagnts/workspace';
import { describe, expect, it } from 'vitest';
import { createUsageRecorder } from './usage-recorder.js';

const usage: Usage = {
  input: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  output: { total: 5, text: 5, reasoning: 0 },
};

function usageStore(): UsageStore & { records: UsageRecord[] } {
  const records: UsageRecord[] = [];
  return {
    records,
    async record(record) {
      records.push(record);
    },
    async report() {
      return [];
    },
  };
}

const usageEvent = (turn: number) =>
  ({ type: 'usage', turn, model: 'm', usage, costUsd: 0.01, totals: {} }) as unknown as QueryEvent;
const turnStart = (turn: number) => ({ type: 'turn-start', turn, model: 'm' }) as unknown as QueryEvent;
const done = { type: 'done', outcome: {} } as unknown as QueryEvent;
const context = { sessionId: 's', provider: 'anthropic', agent: 'build' };

/** A session store without the usage seam (as stores written before it are). */
function plainStore() {
  const memory = createMemorySessionStore();
  return { append: memory.append, load: memory.load };
}

describe('createUsageRecorder', () => {
  it('records each call from the usage events when the loop does not use the seam', async () => {
    const usageRecords = usageStore();
    const recorder = createUsageRecorder(plainStore(), usageRecords, context);
    for (const event of [turnStart(1), usageEvent(1), turnStart(2), usageEvent(2), done]) await recorder.observe(event);
    expect(
      usageRecords.records.map((record) => [record.sessionId, record.provider, record.agent, record.costUsd]),
    ).toEqual([
      ['s', 'anthropic', 'build', 0.01],
      ['s', 'anthropic', 'build', 0.01],
    ]);
  });

  it('records each call once when the loop reports calls through recordUsage, whenever it starts to', async () => {
    const usageRecords = usageStore();
    const recorder = createUsageRecorder(plainStore(), usageRecords, context);
    const call: ModelCallRecord = { sessionId: 's', provider: 'anthropic', model: 'm', purpose: 'turn', usage };
    await recorder.observe(turnStart(1));
    await recorder.observe(usageEvent(1));
    await recorder.store.recordUsage?.(call);
    await recorder.observe(turnStart(2));
    await recorder.store.recordUsage?.(call);
    await recorder.observe(usageEvent(2));
    await recorder.observe(done);
    expect(usageRecords.records).toHaveLength(2);
  });

  it('hands recordUsage to the store when the store implements it, and writes nothing itself', async () => {
    const usageRecords = usageStore();
    const seen: ModelCallRecord[] = [];
    const store = { ...plainStore(), recordUsage: async (record: ModelCallRecord) => void seen.push(record) };
    const recorder = createUsageRecorder(store, usageRecords, context);
    await recorder.store.recordUsage?.({ sessionId: 's', provider: 'p', model: 'm', purpose: 'compaction', usage });
    await recorder.observe(usageEvent(1));
    await recorder.observe(done);
    expect(seen.map((record) => record.purpose)).toEqual(['compaction']);
    expect(usageRecords.records).toEqual([]);
  });

  it('keeps the purpose of each call when it writes the records itself', async () => {
    const usageRecords = usageStore();
    const recorder = createUsageRecorder(plainStore(), usageRecords, context);
    await recorder.store.recordUsage?.({ sessionId: 's', provider: 'p', model: 'm', purpose: 'compaction', usage });
    await recorder.store.recordUsage?.({
      sessionId: 's/agent-1-1',
      provider: 'p',
      model: 'm',
      purpose: 'turn',
      subAgent: 'agent-1-1',
      usage,
    });
    expect(usageRecords.records.map((record) => [record.purpose, record.subAgent])).toEqual([
      ['compaction', undefined],
      ['turn', 'agent-1-1'],
    ]);
    const fromEvents = usageStore();
    const eventRecorder = createUsageRecorder(plainStore(), fromEvents, context);
    for (const event of [turnStart(1), usageEvent(1), done]) await eventRecorder.observe(event);
    expect(fromEvents.records.map((record) => record.purpose)).toEqual(['turn']);
  });

  it('passes createChildSession through to a store whose methods use `this`', async () => {
    class ClassStore {
      readonly memory = createMemorySessionStore();
      append(sessionId: string, entries: Parameters<typeof this.memory.append>[1]) {
        return this.memory.append(sessionId, entries);
      }
      load(sessionId: string) {
        return this.memory.load(sessionId);
      }
      createChildSession(child: ChildSessionInfo) {
        return this.memory.createChildSession(child);
      }
    }
    const store = new ClassStore();
    const recorder = createUsageRecorder(store, usageStore(), context);
    await recorder.store.createChildSession?.({ sessionId: 's/agent-1-1', parentSessionId: 's', title: 'look' });
    expect(store.memory.childSessions()).toEqual([{ sessionId: 's/agent-1-1', parentSessionId: 's', title: 'look' }]);
  });
});
