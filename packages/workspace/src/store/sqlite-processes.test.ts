import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from './migrate.js';
import { openStore } from './open-store.js';

const here = dirname(fileURLToPath(import.meta.url));
const directory = await mkdtemp(join(tmpdir(), 'boxagnts-store-processes-'));

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

interface Writer {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: string[];
  exitCode: Promise<number | null>;
}

function startWriter(path: string, name: string, count: number): Writer {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@boxagnts/source',
      '--import',
      'tsx',
      join(here, 'sqlite-processes.test-writer.ts'),
      path,
      name,
      String(count),
    ],
    { cwd: join(here, '..', '..'), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exitCode = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr, exitCode };
}

async function nextLine(writer: Writer): Promise<string> {
  const next = await writer.lines.next();
  if (next.done) throw new Error(`writer exited early: ${writer.stderr.join('')}`);
  return next.value;
}

describe('two processes writing one SQLite file', () => {
  it('both finish without a single busy error, and every write is there in order', { timeout: 60_000 }, async () => {
    const path = join(directory, 'shared.db');
    const count = 60;
    // Both open (and migrate) the new file at the same moment, then write at the same moment.
    const writers = [startWriter(path, 'a', count), startWriter(path, 'b', count)];
    for (const writer of writers) expect(await nextLine(writer)).toBe('ready');
    for (const writer of writers) writer.child.stdin.end('go\n');
    const reports = await Promise.all(writers.map(async (writer) => JSON.parse(await nextLine(writer))));
    const codes = await Promise.all(writers.map((writer) => writer.exitCode));
    expect(reports).toEqual([
      { writer: 'a', errors: [] },
      { writer: 'b', errors: [] },
    ]);
    expect(codes).toEqual([0, 0]);

    const store = await openStore({ kind: 'sqlite', path });
    try {
      const shared = await store.sessions.load('shared');
      expect(shared.map((entry) => (entry as { seq?: number }).seq)).toEqual(
        Array.from({ length: 2 * count }, (_, index) => index + 1),
      );
      for (const name of ['a', 'b']) {
        const mine = shared
          .map((entry) => entry.message.content as string)
          .filter((text) => text.startsWith(`${name} `));
        expect(mine).toEqual(Array.from({ length: count }, (_, index) => `${name} ${index}`));
        const own = await store.sessions.load(`own-${name}`);
        expect(own).toHaveLength(2 * count);
        expect(own.at(-1)?.message.content).toEqual([{ type: 'text', text: `${name} answer ${count - 1}` }]);
      }
      expect((await store.usage.report('model')).map((row) => [row.key, row.calls])).toEqual([
        ['a', count],
        ['b', count],
      ]);
      const forks = (await store.sessions.list({ limit: 1000 })).filter(
        (session) => session.parentSessionId === 'shared',
      );
      expect(forks).toHaveLength(2 * Math.ceil(count / 3));
      expect(await store.schemaVersion()).toBe(LATEST_SCHEMA_VERSION);
    } finally {
      await store.close();
    }
  });
});
