import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { openSqliteBackend, sqlitePragmas } from './sqlite-backend.js';
import { defineStoreContract } from './store-contract.test-suite.js';
import { isStoreError } from './store-error.js';

const directory = await mkdtemp(join(tmpdir(), 'boxagnts-store-sqlite-'));
let counter = 0;
let current = '';

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

defineStoreContract('sqlite', {
  kind: 'sqlite',
  async openEmpty() {
    current = join(directory, `store-${++counter}.db`);
    return openStore({ kind: 'sqlite', path: current });
  },
  async reopen() {
    return openStore({ kind: 'sqlite', path: current });
  },
  async openEmptyBackend() {
    current = join(directory, `store-${++counter}.db`);
    return openSqliteBackend(current);
  },
});

describe('SQLite specifics', () => {
  it('runs in WAL with synchronous FULL, foreign keys and a busy timeout', async () => {
    const path = join(directory, 'pragmas.db');
    const backend = openSqliteBackend(path);
    expect(await sqlitePragmas(backend)).toEqual({
      journalMode: 'wal',
      synchronous: 2,
      foreignKeys: 1,
      busyTimeout: 5000,
    });
    await backend.close();
    const normal = openSqliteBackend(path, { synchronous: 'normal', busyTimeoutMs: 250 });
    expect(await sqlitePragmas(normal)).toMatchObject({ synchronous: 1, busyTimeout: 250 });
    await normal.close();
  });

  it('keeps the full-text index in step with inserts and deletes', async () => {
    const path = join(directory, 'fts.db');
    const store = await openStore({ kind: 'sqlite', path });
    await store.sessions.append('a', [{ message: { role: 'user', content: 'quokka one' } }]);
    await store.sessions.append('b', [{ message: { role: 'user', content: 'quokka two' } }]);
    await store.sessions.delete('a');
    await store.close();
    const raw = new BetterSqlite3(path, { readonly: true });
    try {
      const rows = raw.prepare("SELECT session_id FROM message_search WHERE message_search MATCH 'quokka'").all();
      expect(rows).toEqual([{ session_id: 'b' }]);
      expect(raw.prepare("SELECT count(*) AS n FROM message_search WHERE message_search MATCH 'one'").get()).toEqual({
        n: 0,
      });
    } finally {
      raw.close();
    }
  });

  it('waits for another connection holding the write lock instead of failing', async () => {
    const path = join(directory, 'locked.db');
    const store = await openStore({ kind: 'sqlite', path });
    // better-sqlite3 waits for a lock synchronously, blocking this thread: hold the lock in a worker
    // thread, which releases it while the store's BEGIN IMMEDIATE waits in the busy handler.
    const holder = new Worker(
      `const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
       const db = new Database(${JSON.stringify(path)});
       db.exec('BEGIN IMMEDIATE');
       require('node:worker_threads').parentPort.postMessage('locked');
       const until = Date.now() + 300; while (Date.now() < until) {}
       db.exec('COMMIT'); db.close();`,
      { eval: true },
    );
    await new Promise((resolve) => holder.once('message', resolve));
    await store.sessions.append('waited', [{ message: { role: 'user', content: 'after the lock' } }]);
    await new Promise((resolve) => holder.once('exit', resolve));
    expect((await store.sessions.load('waited')).map((entry) => entry.message.content)).toEqual(['after the lock']);
    await store.close();
  });

  it('reports a file it cannot open as a connection-failed StoreError', async () => {
    const error = await openStore({ kind: 'sqlite', path: join(directory, 'missing-folder', 'x.db') }).catch(
      (caught) => caught,
    );
    expect(isStoreError(error)).toBe(true);
    expect(error.reason).toBe('connection-failed');
    expect(error.message).toContain('check that the folder exists');
  });

  it('caps one stored message at maxMessageBytes, counting UTF-8 bytes, on append and import', async () => {
    const store = await openStore({ kind: 'sqlite', path: join(directory, 'capped.db') }, { maxMessageBytes: 100 });
    try {
      // 49 two-byte characters and two quotes: 100 bytes, the cap itself.
      await store.sessions.append('c', [{ message: { role: 'user', content: 'ü'.repeat(49) } }]);
      const over = await store.sessions
        .append('c', [{ message: { role: 'user', content: 'ü'.repeat(50) } }])
        .catch((error) => error);
      expect(isStoreError(over) && over.reason).toBe('too-large');
      expect(over.message).toContain('is 102 bytes of JSON, more than the 100 bytes');
      const jsonl = (await store.sessions.exportJsonl('c')).replaceAll('ü'.repeat(49), 'ü'.repeat(60));
      const imported = await store.sessions.importJsonl(jsonl, { id: 'c2' }).catch((error) => error);
      expect(isStoreError(imported) && imported.reason).toBe('too-large');
      expect(await store.sessions.get('c2')).toBeUndefined();
    } finally {
      await store.close();
    }
    for (const maxMessageBytes of [0, -1, 1.5, Number.NaN]) {
      const error = await openStore({ kind: 'sqlite', path: join(directory, 'x.db') }, { maxMessageBytes }).catch(
        (caught) => caught,
      );
      expect(isStoreError(error) && error.reason).toBe('invalid-input');
    }
  });

  it('rejects a config without a path or of an unknown kind', async () => {
    for (const config of [{ kind: 'sqlite', path: '' }, { kind: 'mysql' }]) {
      const error = await openStore(config as never).catch((caught) => caught);
      expect(isStoreError(error) && error.reason).toBe('invalid-input');
    }
  });
});
