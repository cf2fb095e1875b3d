// pnpm bench (in packages/gateway): runs per second through pg-boss with three gateways (workers) on one
// PostgreSQL database, against the in-process queue of one gateway on SQLite, same run, same client.
// The model is the testkit mock on loopback without pacing, so the numbers are the queue's and log's cost.
// Needs the PostgreSQL of this machine kind (BOXAGNTS_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres);
// without one it prints why and measures only the in-process queue.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startMockServer } from '@boxagnts/testkit';
import { openWorkspace } from '@boxagnts/workspace';
import pg from 'pg';
import { type Gateway, startGateway } from '../src/index.js';

const runs = Number(process.env.BENCH_QUEUE_RUNS ?? 200);
const inFlight = Number(process.env.BENCH_QUEUE_IN_FLIGHT ?? 24);
const adminUrl = process.env.BOXAGNTS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const line = (text: string) => process.stdout.write(`${text}\n`);

const mock = await startMockServer({
  script: { steps: [{ text: 'A short answer.', usage: { input: 100, output: 10 } }], repeatLast: true },
});
const dirs: string[] = [];

async function workspaceDir(store?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'boxagnts-queue-bench-'));
  dirs.push(dir);
  await writeFile(
    join(dir, 'boxagnts.json'),
    JSON.stringify({
      providers: { anthropic: { baseUrl: mock.url, apiKey: { secret: 'anthropic' } } },
      ...(store === undefined ? {} : { store: { kind: 'postgres', url: store } }),
    }),
  );
  const workspace = await openWorkspace(dir);
  await workspace.secrets.set('anthropic', 'bench-key-not-secret');
  await workspace.close();
  return dir;
}

/** Starts `runs` runs through `front` (at most `inFlight` unfinished at once) and waits for all; runs/s. */
async function measure(label: string, front: Gateway, prefix: string): Promise<number> {
  const started = performance.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < runs) {
        const index = next++;
        const record = await front.runs.start({
          sessionId: `${prefix}-${index}`,
          input: [{ role: 'user', content: `question ${index}` }],
        });
        if ((await front.runs.wait(record.id)).status !== 'completed') failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rate = runs / seconds;
  line(
    `${label}: ${runs} runs in ${seconds.toFixed(2)} s, ${rate.toFixed(1)} runs/s${failed ? ` (${failed} failed)` : ''}`,
  );
  return rate;
}

const sandbox = { bash: false, jsExec: false };
const local = await startGateway({ workspace: await workspaceDir(), port: 0, sandbox });
await measure('warm-up (in-process)', local, 'warm');
const inProcess = await measure('in-process queue, one gateway on SQLite', local, 'local');
await local.close();

const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
const reachable = await admin.connect().then(
  () => true,
  (error: unknown) => {
    line(`pg-boss half skipped: no PostgreSQL at ${adminUrl} (${(error as Error).message})`);
    return false;
  },
);
if (reachable) {
  const name = `boxagnts_queue_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
  try {
    const gateways: Gateway[] = [];
    for (let index = 0; index < 3; index++) {
      gateways.push(
        await startGateway({
          workspace: await workspaceDir(url),
          port: 0,
          sandbox,
          runs: { concurrency: Math.ceil(inFlight / 3) + 2, pollMs: 200, shutdownGraceMs: 0 },
        }),
      );
    }
    await measure('warm-up (pg-boss)', gateways[0] as Gateway, 'warm');
    const queued = await measure('pg-boss, three gateways on one PostgreSQL', gateways[0] as Gateway, 'shared');
    const front = gateways[0] as Gateway;
    const byWorker = new Map<string, number>();
    for (const run of await front.runs.list({ limit: 100_000 })) {
      if (!run.sessionId.startsWith('shared-')) continue;
      const started = (await front.runs.log.events(run.id, 0, 10)).find((event) => event.type === 'run-started');
      const worker = gateways.findIndex((gateway) => gateway.runs.instanceId === started?.data.worker);
      byWorker.set(`gateway ${worker + 1}`, (byWorker.get(`gateway ${worker + 1}`) ?? 0) + 1);
    }
    line(`runs per worker: ${[...byWorker].map(([worker, count]) => `${worker} ${count}`).join(', ')}`);
    line(`pg-boss / in-process: ${(queued / inProcess).toFixed(2)}x the runs per second`);
    for (const gateway of gateways) await gateway.close();
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
await admin.end().catch(() => undefined);
await mock.close();
for (const dir of dirs) await rm(dir, { recursive: true, force: true });
