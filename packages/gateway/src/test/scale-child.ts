// A gateway in its own process for the scale-out tests: started with the options in argv[3] (JSON),
// prints {"url"} once listening, then serves until killed. Over IPC it takes
// {id, type: 'cron', jobId, times: number[]} and starts each occurrence the way the cron scheduler
// does (runs.start with the occurrence's dedupe key), answering {id, created, deduplicated}.
import { randomUUID } from 'node:crypto';
import { startGateway } from '../gateway.js';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: scale-child.ts <workspace-dir> [options-json]');
const options = JSON.parse(process.argv[3] ?? '{}');
const gateway = await startGateway({ workspace: dir, port: 0, sandbox: { bash: false, jsExec: false }, ...options });
process.stdout.write(`${JSON.stringify({ url: gateway.url })}\n`);

interface CronMessage {
  id: number;
  type: 'cron' | 'close';
  jobId: string;
  times: number[];
}

process.on('message', async (message: CronMessage) => {
  if (message.type === 'close') {
    await gateway.close();
    process.send?.({ id: message.id, closed: true });
    return;
  }
  let created = 0;
  let deduplicated = 0;
  const errors: string[] = [];
  // A few occurrences at a time, as a scheduler firing them when they fall due would.
  const queue = [...message.times];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let scheduledFor = queue.shift(); scheduledFor !== undefined; scheduledFor = queue.shift()) {
        const iso = new Date(scheduledFor).toISOString();
        try {
          const record = await gateway.runs.start({
            sessionId: `cron-${randomUUID()}`,
            input: [{ role: 'user', content: `CRON ${message.jobId} ${iso}` }],
            origin: { kind: 'cron', jobId: message.jobId, scheduledFor },
            dedupeKey: `cron:${message.jobId}:${iso}`,
          });
          if (record.deduplicated === true) deduplicated++;
          else created++;
        } catch (error) {
          errors.push(String(error));
        }
      }
    }),
  );
  process.send?.({ id: message.id, created, deduplicated, errors });
});
