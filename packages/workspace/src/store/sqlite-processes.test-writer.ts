// A child process of sqlite-processes.test.ts: opens the store file given on the command line,
// says "ready", waits for "go" on stdin, then appends and records usage as fast as it can and
// prints what happened as one JSON line.
import { createInterface } from 'node:readline';
import { openStore } from './open-store.js';
import { isStoreError } from './store-error.js';

const [path, writer, countText] = process.argv.slice(2);
const count = Number(countText);
const errors: string[] = [];
const store = await openStore({ kind: 'sqlite', path: path as string });
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
lines.close();
for (let index = 0; index < count; index++) {
  try {
    await store.sessions.append('shared', [{ message: { role: 'user', content: `${writer} ${index}` } }]);
    await store.sessions.append(`own-${writer}`, [
      { message: { role: 'user', content: `${writer} question ${index}` } },
      { message: { role: 'assistant', content: [{ type: 'text', text: `${writer} answer ${index}` }] } },
    ]);
    if (index % 10 === 0) await store.sessions.rename('shared', `renamed by ${writer} ${index}`);
    // Fork reads, then writes: the pattern a deferred transaction fails on with "database is locked".
    if (index % 3 === 0) await store.sessions.fork('shared', 1, { id: `fork-${writer}-${index}` });
    await store.usage.record({
      sessionId: `own-${writer}`,
      provider: 'test',
      model: writer as string,
      usage: {
        input: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
        output: { total: 1, text: 1, reasoning: 0 },
      },
    });
  } catch (error) {
    errors.push(isStoreError(error) ? `${error.reason}: ${error.message}` : String(error));
  }
}
await store.close();
process.stdout.write(`${JSON.stringify({ writer, errors })}\n`);
