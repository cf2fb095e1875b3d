/**
 * A child process that appends to a SQLite store in a tight loop, for the two-writer and the
 * kill-during-writes tests. It prints `READY` once the store is open, waits for `go` on stdin,
 * appends, and prints `ACK <count> <digest>` per durable entry (burst mode) or one
 * `RESULT <json>` line at the end (plan mode).
 *
 * Run: `node --conditions=@boxagnts/source --import tsx append-child.ts '<AppendChildConfig JSON>'`.
 */
import { createInterface } from 'node:readline';
import type { Message } from '@boxagnts/api';
import type { SessionEntry } from '@boxagnts/query';
import { openStore } from '../store/open-store.js';
import type { WorkspaceSessionStore } from '../store/store-types.js';
import { type AppendChildConfig, type AppendChildResult, appendedText } from './append-plan.js';
import { messageDigest } from './message-digest.js';

const LIFETIME_MS = 60_000;

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function entryFor(writer: string, sessionId: string, index: number): SessionEntry {
  const text = appendedText(writer, sessionId, index);
  const message: Message =
    index % 2 === 0 ? { role: 'user', content: text } : { role: 'assistant', content: [{ type: 'text', text }] };
  return { message };
}

async function ensureSession(sessions: WorkspaceSessionStore, sessionId: string): Promise<void> {
  if ((await sessions.get(sessionId)) !== undefined) return;
  try {
    await sessions.create({ id: sessionId, title: sessionId });
  } catch (error) {
    // The other writer may have created it in between; anything else is a real failure.
    if ((await sessions.get(sessionId)) === undefined) throw error;
  }
}

function waitForGo(): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      if (line.trim() !== 'go') return;
      lines.close();
      // An open stdin pipe would keep the process alive after its work.
      process.stdin.destroy();
      resolve();
    });
  });
}

function describeError(error: unknown): string {
  const { code, reason } = (error ?? {}) as { code?: unknown; reason?: unknown };
  const label = [reason, code].filter((part) => typeof part === 'string').join(' ');
  return `${label} ${String((error as Error)?.message ?? error)}`.replace(/\s+/g, ' ').trim();
}

async function runPlan(sessions: WorkspaceSessionStore, config: AppendChildConfig): Promise<AppendChildResult> {
  const result: AppendChildResult = { appended: {}, errors: [], startedAt: Date.now(), finishedAt: 0 };
  const longest = Math.max(0, ...config.plan.map((item) => item.count));
  for (let index = 0; index < longest; index++) {
    for (const item of config.plan) {
      if (index >= item.count) continue;
      try {
        await sessions.append(item.sessionId, [entryFor(config.writer, item.sessionId, index)]);
        result.appended[item.sessionId] = (result.appended[item.sessionId] ?? 0) + 1;
      } catch (error) {
        result.errors.push(describeError(error));
      }
    }
  }
  result.finishedAt = Date.now();
  return result;
}

async function runBurst(sessions: WorkspaceSessionStore, config: AppendChildConfig): Promise<never> {
  const sessionId = config.plan[0]?.sessionId ?? 'burst';
  let count = (await sessions.load(sessionId)).length;
  for (let round = 0; ; round++) {
    // Batches of 1 to 3 entries, so the kill also lands inside multi-entry transactions.
    const entries = Array.from({ length: (round % 3) + 1 }, (_, offset) =>
      entryFor(config.writer, sessionId, count + offset),
    );
    await sessions.append(sessionId, entries);
    for (const entry of entries) {
      count++;
      print(`ACK ${count} ${messageDigest(entry.message)}`);
    }
  }
}

/**
 * What the loop writes beside messages, in a tight loop: every third round announces a sub-agent
 * session (`CHILD <n>` once durable), every round records one model call (`USAGE <n>`).
 */
async function runRunRecords(sessions: WorkspaceSessionStore, config: AppendChildConfig): Promise<never> {
  const parent = config.plan[0]?.sessionId ?? 'records';
  for (let round = 1; ; round++) {
    if (round % 3 === 0) {
      await sessions.createChildSession({ sessionId: `${parent}/agent-${round}`, parentSessionId: parent });
      print(`CHILD ${round / 3}`);
    }
    await sessions.recordUsage({
      sessionId: parent,
      provider: 'anthropic',
      model: 'claude-test',
      purpose: round % 2 === 0 ? 'turn' : 'compaction',
      usage: {
        input: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        output: { total: 1, text: 1, reasoning: 0 },
      },
    });
    print(`USAGE ${round}`);
  }
}

async function main(): Promise<void> {
  const lifetime = setTimeout(() => {
    process.stderr.write(`append child: still running after ${LIFETIME_MS} ms\n`);
    process.exit(3);
  }, LIFETIME_MS);
  const config = JSON.parse(process.argv[2] ?? '{}') as AppendChildConfig;
  const store = await openStore(
    { kind: 'sqlite', path: config.databasePath },
    config.busyTimeoutMs === undefined ? {} : { sqlite: { busyTimeoutMs: config.busyTimeoutMs } },
  );
  for (const item of config.plan) await ensureSession(store.sessions, item.sessionId);
  print('READY');
  await waitForGo();
  if (config.mode === 'burst') await runBurst(store.sessions, config);
  if (config.mode === 'run-records') await runRunRecords(store.sessions, config);
  const result = await runPlan(store.sessions, config);
  print(`RESULT ${JSON.stringify(result)}`);
  await store.close();
  clearTimeout(lifetime);
}

main().catch((error: unknown) => {
  process.stderr.write(`append child failed: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(2);
});
