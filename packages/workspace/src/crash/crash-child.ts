/**
 * A child process the crash tests kill with SIGKILL: it opens the SQLite store, runs a scripted
 * conversation through `runQuery` against the mock server, prints `ACK <seq> <digest>` once each
 * stored entry is durable and `STAGE <stage>` when it reaches the stage it was asked for, then
 * holds there until it is killed.
 *
 * Run: `node --conditions=@boxagnts/source --import tsx crash-child.ts '<CrashChildConfig JSON>'`.
 */
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { runQuery, type SessionEntry, type SessionStore } from '@boxagnts/query';
import { defineTool } from '@boxagnts/tools';
import { z } from 'zod';
import { openStore } from '../store/open-store.js';
import {
  BLOCKING_TOOL_NAME,
  type CrashChildConfig,
  type CrashStage,
  crashHistory,
  crashQueryConfig,
  stageLine,
} from './crash-scenario.js';
import { messageDigest } from './message-digest.js';

/** A child that was never killed must not linger after its test. */
const LIFETIME_MS = 60_000;

function print(line: string): void {
  // Writes to a pipe are synchronous on Linux: once the parent reads a line, it was written first.
  process.stdout.write(`${line}\n`);
}

/** Waits until the process is killed (the lifetime timer keeps the event loop alive). */
function hold(): Promise<never> {
  return new Promise<never>(() => {});
}

function acknowledging(inner: SessionStore, stage: CrashStage, stored: number): SessionStore {
  let count = stored;
  let held = false;
  return {
    load: (sessionId) => inner.load(sessionId),
    async append(sessionId: string, entries: readonly SessionEntry[]) {
      await inner.append(sessionId, entries);
      for (const entry of entries) {
        count++;
        print(`ACK ${count} ${messageDigest(entry.message)}`);
      }
      if (stage === 'user-stored' && !held) {
        held = true;
        print(stageLine('user-stored'));
        await hold();
      }
    },
  };
}

async function main(): Promise<void> {
  const lifetime = setTimeout(() => {
    process.stderr.write(`crash child: not killed within ${LIFETIME_MS} ms\n`);
    process.exit(3);
  }, LIFETIME_MS);
  const config = JSON.parse(process.argv[2] ?? '{}') as CrashChildConfig;
  const store = await openStore({ kind: 'sqlite', path: config.databasePath });
  if ((await store.sessions.get(config.sessionId)) === undefined) await store.sessions.create({ id: config.sessionId });
  const stored = (await store.sessions.load(config.sessionId)).length;
  const provider = createAnthropicMessagesProvider({
    baseURL: config.mockUrl,
    apiKey: 'crash-test-key',
    retry: { maxRetries: 0 },
    // The mock stalls on purpose; a stall timer would retry the turn before the parent kills.
    stall: false,
  });
  const blockingTool = defineTool({
    name: BLOCKING_TOOL_NAME,
    description: 'Run a database migration by name.',
    inputSchema: z.object({ name: z.string() }),
    permission: 'write',
    execute: async () => {
      print(stageLine('tool-started'));
      return hold();
    },
  });
  let streaming = false;
  const run = runQuery({
    provider,
    messages: crashHistory(config.stage),
    tools: [blockingTool],
    toolContext: { root: process.cwd(), sessionId: config.sessionId },
    config: crashQueryConfig(config.stage),
    session: { store: acknowledging(store.sessions, config.stage, stored), sessionId: config.sessionId },
  });
  for await (const event of run) {
    if (event.type === 'text-delta' && !streaming) {
      streaming = true;
      print(stageLine('streaming'));
    }
    if (event.type === 'status' && event.kind === 'compacting') print(stageLine('compacting'));
    if (event.type === 'done') print(`DONE ${event.outcome.reason}`);
  }
  clearTimeout(lifetime);
  await store.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`crash child failed: ${String((error as Error)?.stack ?? error)}\n`);
  process.exit(2);
});
