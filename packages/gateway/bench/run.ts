// pnpm bench (in packages/gateway): what the gateway adds to a run, against the same run in-process.
// The model is the testkit mock on loopback with no pacing, so the numbers are the gateway's own cost.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startMockServer } from '@boxagnts/testkit';
import { openWorkspace } from '@boxagnts/workspace';
import { createAgent, startGateway } from '../src/index.js';

const runs = Number(process.env.BENCH_RUNS ?? 40);
const concurrent = Number(process.env.BENCH_CONCURRENT ?? 100);
const streams = Number(process.env.BENCH_STREAMS ?? 1000);
const step = { text: 'A short answer of a few words.', usage: { input: 100, output: 10 } };

const dir = await mkdtemp(join(tmpdir(), 'boxagnts-gateway-bench-'));
const mock = await startMockServer({
  script: {
    rules: [
      {
        match: { contains: 'SLOW-RUN' },
        steps: [{ content: [{ type: 'tool_call', name: 'sleep', input: { seconds: 120 } }] }],
      },
    ],
    steps: [step],
    repeatLast: true,
  },
});
await writeFile(
  join(dir, 'boxagnts.json'),
  JSON.stringify({ providers: { anthropic: { baseUrl: mock.url, apiKey: { secret: 'anthropic' } } } }),
);
const workspace = await openWorkspace(dir);
await workspace.secrets.set('anthropic', 'bench-key-not-secret');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const line = (text: string) => process.stdout.write(`${text}\n`);

// In-process baseline.
const agent = await createAgent({ workspace, sandbox: { bash: false, jsExec: false } });
const inProcess: number[] = [];
const inFirst: number[] = [];
const cpuIn = process.cpuUsage();
for (let index = 0; index < runs; index++) {
  const started = performance.now();
  let first = 0;
  for await (const _event of agent.run('hi', { sessionId: `in-${index}` }))
    if (first === 0) first = performance.now() - started;
  inProcess.push(performance.now() - started);
  inFirst.push(first);
}
const cpuInUs = process.cpuUsage(cpuIn);
await agent.close();

// Through the gateway over HTTP (stream mode: the run's SSE events until run-end).
const gateway = await startGateway({
  workspace,
  port: 0,
  sandbox: { bash: false, jsExec: false },
  security: { requestsPerMinute: 1_000_000 },
});
async function streamedRun(session: string): Promise<{ total: number; first: number }> {
  const started = performance.now();
  const response = await fetch(`${gateway.url}/sessions/${session}/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ input: 'hi', mode: 'stream' }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let first = 0;
  let text = '';
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (first === 0) first = performance.now() - started;
    text += decoder.decode(value, { stream: true });
    if (text.includes('event: run-end')) {
      await reader.cancel();
      break;
    }
  }
  return { total: performance.now() - started, first };
}
const viaGateway: number[] = [];
const gwFirst: number[] = [];
const cpuGw = process.cpuUsage();
for (let index = 0; index < runs; index++) {
  const result = await streamedRun(`gw-${index}`);
  viaGateway.push(result.total);
  gwFirst.push(result.first);
}
const cpuGwUs = process.cpuUsage(cpuGw);
line(`runs: ${runs} sequential, mock model without pacing`);
line(
  `in-process:  median ${median(inProcess).toFixed(2)} ms/run, first event ${median(inFirst).toFixed(2)} ms, CPU ${((cpuInUs.user + cpuInUs.system) / 1000 / runs).toFixed(2)} ms/run`,
);
line(
  `via gateway: median ${median(viaGateway).toFixed(2)} ms/run, first event ${median(gwFirst).toFixed(2)} ms, CPU ${((cpuGwUs.user + cpuGwUs.system) / 1000 / runs).toFixed(2)} ms/run (client and server in one process)`,
);
line(
  `ratio gateway / in-process: latency ${(median(viaGateway) / median(inProcess)).toFixed(2)}x, added ${(median(viaGateway) - median(inProcess)).toFixed(2)} ms/run`,
);

// The first round fills the agent pool (one agent per run at once); the second is measured.
await Promise.all(Array.from({ length: concurrent }, (_, index) => streamedRun(`warm-${index}`)));
const concurrentStart = performance.now();
await Promise.all(Array.from({ length: concurrent }, (_, index) => streamedRun(`cc-${index}`)));
const seconds = (performance.now() - concurrentStart) / 1000;
line(`${concurrent} concurrent clients: ${(concurrent / seconds).toFixed(1)} runs/s (pool warm)`);

// Event streams open on one running run (its tool sleeps): memory per open stream. Run with --expose-gc for steadier numbers.
const slow = await fetch(`${gateway.url}/sessions/mem/runs`, {
  method: 'POST',
  body: JSON.stringify({ input: 'SLOW-RUN' }),
});
const { id: liveId } = (await slow.json()) as { id: string };
global.gc?.();
const before = process.memoryUsage().heapUsed + process.memoryUsage().external;
const controllers: AbortController[] = [];
const opened = await Promise.all(
  Array.from({ length: streams }, async () => {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${gateway.url}/runs/${liveId}/events?after=999999`, {
      signal: controller.signal,
    }).catch(() => undefined);
    return response?.status === 200;
  }),
);
global.gc?.();
const after = process.memoryUsage().heapUsed + process.memoryUsage().external;
line(
  `${opened.filter(Boolean).length} open event streams: ~${((after - before) / streams / 1024).toFixed(1)} KiB per stream (client and server in one process)`,
);
for (const controller of controllers) controller.abort();
await fetch(`${gateway.url}/runs/${liveId}/cancel`, { method: 'POST' });

await gateway.close();
await workspace.close();
await mock.close();
await rm(dir, { recursive: true, force: true });
