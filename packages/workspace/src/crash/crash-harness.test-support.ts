import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropicMessagesProvider, type Message } from '@boxagnts/api';
import { type QueryOutcome, runQueryToEnd } from '@boxagnts/query';
import { type MockScript, type MockServer, type RecordedRequest, startMockServer } from '@boxagnts/testkit';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../store/open-store.js';
import type { WorkspaceStore } from '../store/store-types.js';
import { type CrashStage, crashQueryConfig } from './crash-scenario.js';
import { messageDigest } from './message-digest.js';
import type { TsChild } from './ts-child.js';

/** A temp folder with a store file and a mock server that can report requests as they arrive. */
export interface CrashRig {
  dir: string;
  databasePath: string;
  mock: MockServer;
  /** Resolves with the first request (already received or still to come) that passes `test`. */
  request(test: (request: RecordedRequest) => boolean): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** Starts a mock server playing `script` and makes a temp folder for the database. */
export async function startCrashRig(script: MockScript): Promise<CrashRig> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-crash-'));
  const waiters: Array<{ test: (request: RecordedRequest) => boolean; resolve: (request: RecordedRequest) => void }> =
    [];
  const mock = await startMockServer({
    script,
    onRequest: (request) => {
      for (const waiter of [...waiters]) {
        if (!waiter.test(request)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(request);
      }
    },
  });
  return {
    dir,
    databasePath: join(dir, 'store.db'),
    mock,
    request(test) {
      const seen = mock.requests.find(test);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    async close() {
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `ACK <seq> <digest>` lines of a child: what it was told is durable. */
export function acknowledged(child: TsChild): Map<number, string> {
  const acks = new Map<number, string>();
  for (const line of child.lines) {
    const match = /^ACK (\d+) ([0-9a-f]+)$/.exec(line);
    if (match) acks.set(Number(match[1]), match[2] as string);
  }
  return acks;
}

/** Acknowledged entries whose stored message is missing or differs: empty when nothing was lost. */
export function missingAcknowledged(acks: Map<number, string>, stored: readonly { message: Message }[]): number[] {
  const missing: number[] = [];
  for (const [seq, digest] of acks) {
    const entry = stored[seq - 1];
    if (entry === undefined || messageDigest(entry.message) !== digest) missing.push(seq);
  }
  return missing;
}

/** SQLite's own verdict on the file (`['ok']` when nothing is corrupt), from a separate connection. */
export function integrityCheck(databasePath: string): string[] {
  const database = new BetterSqlite3(databasePath);
  try {
    return (database.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
  } finally {
    database.close();
  }
}

/** Opens the store the child wrote, as the next process after a crash would. */
export function reopen(rig: CrashRig): Promise<WorkspaceStore> {
  return openStore({ kind: 'sqlite', path: rig.databasePath });
}

/** The next request after the crash: a run over `messages` that stores into the same session. */
export function nextRequest(
  rig: CrashRig,
  store: WorkspaceStore,
  stage: CrashStage,
  sessionId: string,
  messages: readonly Message[],
): Promise<QueryOutcome> {
  const provider = createAnthropicMessagesProvider({
    baseURL: rig.mock.url,
    apiKey: 'crash-test-key',
    retry: { maxRetries: 0 },
  });
  return runQueryToEnd({
    provider,
    messages,
    toolContext: { root: rig.dir, sessionId },
    config: crashQueryConfig(stage),
    session: { store: store.sessions, sessionId },
  });
}

/** Every tool_use id of a history, and how many tool_result blocks answer each. */
export function toolAnswers(messages: readonly Message[]): Map<string, number> {
  const answers = new Map<string, number>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') answers.set(block.id, answers.get(block.id) ?? 0);
      if (block.type === 'tool_result') answers.set(block.toolUseId, (answers.get(block.toolUseId) ?? 0) + 1);
    }
  }
  return answers;
}
