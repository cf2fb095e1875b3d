import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/open-store.js';
import type { WorkspaceStore } from '../store/store-types.js';
import { type AppendChildConfig, type AppendChildResult, appendedText } from './append-plan.js';
import { integrityCheck } from './crash-harness.test-support.js';
import { CHILD_TEST_TIMEOUT_MS, spawnTsChild, type TsChild } from './ts-child.js';

const PER_SESSION = 60;
const SHARED = 'shared';

let dir: string | undefined;
let children: TsChild[] = [];
let store: WorkspaceStore | undefined;
afterEach(async () => {
  await Promise.all(children.map((child) => child.kill()));
  await store?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  children = [];
  store = undefined;
  dir = undefined;
});

function resultOf(child: TsChild): AppendChildResult {
  const line = child.lines.find((candidate) => candidate.startsWith('RESULT '));
  if (line === undefined) throw new Error(`the writer printed no RESULT; stderr:\n${child.stderr()}`);
  return JSON.parse(line.slice('RESULT '.length)) as AppendChildResult;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('');
}

/** How the rows of one session sit in the table: seqs must be 1..n with no gap or duplicate. */
function seqShape(databasePath: string, sessionId: string) {
  const database = new BetterSqlite3(databasePath, { readonly: true });
  try {
    return database
      .prepare(
        'SELECT count(*) AS rows, count(DISTINCT seq) AS distinctSeqs, min(seq) AS first, max(seq) AS last FROM messages WHERE session_id = ?',
      )
      .get(sessionId) as { rows: number; distinctSeqs: number; first: number; last: number };
  } finally {
    database.close();
  }
}

/** Starts one writer per name on the same file, releases them together, and waits for their reports. */
async function runWriters(databasePath: string, writers: readonly string[], busyTimeoutMs?: number) {
  const spawnWriter = (writer: string) => {
    const config: AppendChildConfig = {
      databasePath,
      writer,
      plan: [
        { sessionId: SHARED, count: PER_SESSION },
        { sessionId: `own-${writer}`, count: PER_SESSION },
      ],
      mode: 'plan',
      ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }),
    };
    return spawnTsChild('append-child.ts', [JSON.stringify(config)]);
  };
  const ready = (child: TsChild) => child.waitForLine((line) => line === 'READY', '"READY"');
  if (busyTimeoutMs === undefined) {
    // Both open the file at the same moment: migrations and WAL setup race too.
    children = writers.map(spawnWriter);
    await Promise.all(children.map(ready));
  } else {
    // Without a busy timeout even opening could fail; open one after the other so only appends contend.
    children = [];
    for (const writer of writers) {
      const child = spawnWriter(writer);
      children.push(child);
      await ready(child);
    }
  }
  for (const child of children) child.send('go');
  const exits = await Promise.all(children.map((child) => child.exited));
  for (const [index, exit] of exits.entries()) expect(exit.code, children[index]?.stderr()).toBe(0);
  return children.map(resultOf);
}

describe('two processes writing to one SQLite database at once', { timeout: CHILD_TEST_TIMEOUT_MS }, () => {
  it('open a new file together, append to one shared and one own session in tight loops: no SQLITE_BUSY, nothing lost', async () => {
    dir = await mkdtemp(join(tmpdir(), 'boxagnts-writers-'));
    const databasePath = join(dir, 'store.db');
    const writers = ['writer-a', 'writer-b'];
    const results = await runWriters(databasePath, writers);
    for (const [index, result] of results.entries()) {
      expect(result.errors).toEqual([]);
      expect(result.appended).toEqual({ [SHARED]: PER_SESSION, [`own-${writers[index]}`]: PER_SESSION });
    }

    expect(integrityCheck(databasePath)).toEqual(['ok']);
    store = await openStore({ kind: 'sqlite', path: databasePath });
    const shared = await store.sessions.load(SHARED);
    expect(shared).toHaveLength(2 * PER_SESSION);
    expect(seqShape(databasePath, SHARED)).toEqual({
      rows: 2 * PER_SESSION,
      distinctSeqs: 2 * PER_SESSION,
      first: 1,
      last: 2 * PER_SESSION,
    });
    expect((await store.sessions.get(SHARED))?.messageCount).toBe(2 * PER_SESSION);
    const texts = shared.map((entry) => textOf(entry.message.content));
    for (const writer of writers) {
      // Each writer's entries are all there, once each, in the order it appended them.
      const own = texts.filter((text) => text.startsWith(`${writer} `));
      expect(own).toEqual(Array.from({ length: PER_SESSION }, (_, index) => appendedText(writer, SHARED, index)));
    }
    // The writers really overlapped in time (one may still have waited on the other's lock).
    const [first, second] = results as [AppendChildResult, AppendChildResult];
    expect(first.startedAt).toBeLessThan(second.finishedAt);
    expect(second.startedAt).toBeLessThan(first.finishedAt);
    for (const writer of writers) {
      const own = await store.sessions.load(`own-${writer}`);
      expect(own.map((entry) => textOf(entry.message.content))).toEqual(
        Array.from({ length: PER_SESSION }, (_, index) => appendedText(writer, `own-${writer}`, index)),
      );
      expect(seqShape(databasePath, `own-${writer}`).distinctSeqs).toBe(PER_SESSION);
    }
  });

  it('control: the same run without a busy timeout does hit SQLITE_BUSY, and still stores exactly what succeeded', async () => {
    dir = await mkdtemp(join(tmpdir(), 'boxagnts-writers-'));
    const databasePath = join(dir, 'store.db');
    // Created beforehand, so only the appends contend.
    await (await openStore({ kind: 'sqlite', path: databasePath })).close();
    const writers = ['writer-a', 'writer-b'];
    const results = await runWriters(databasePath, writers, 0);
    const errors = results.flatMap((result) => result.errors);
    expect(errors.length, JSON.stringify(results)).toBeGreaterThan(0);
    for (const error of errors) expect(error).toMatch(/busy|SQLITE_BUSY|locked/i);
    expect(integrityCheck(databasePath)).toEqual(['ok']);
    store = await openStore({ kind: 'sqlite', path: databasePath });
    const texts = (await store.sessions.load(SHARED)).map((entry) => textOf(entry.message.content));
    for (const [index, writer] of writers.entries()) {
      const stored = texts.filter((text) => text.startsWith(`${writer} `)).length;
      expect(stored).toBe(results[index]?.appended[SHARED] ?? 0);
    }
    expect(seqShape(databasePath, SHARED).distinctSeqs).toBe(texts.length);
  });
});
