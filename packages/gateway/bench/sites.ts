// pnpm bench (in packages/gateway), the static-site part: requests per second of the gateway's sites
// handler against sirv serving the same folder in the same run, with autocannon over loopback.
// The servers run in a child process; the load client (this process) uses 10 connections.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SITES_SECONDS ?? 3);
const connections = Number(process.env.BENCH_SITES_CONNECTIONS ?? 10);
const line = (text: string) => process.stdout.write(`${text}\n`);

const dir = await mkdtemp(join(tmpdir(), 'boxagnts-sites-bench-'));
const here = dirname(fileURLToPath(import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'sites-servers.ts'), dir], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: { ...process.env, NODE_OPTIONS: '--conditions=@boxagnts/source' },
});
const ports = await new Promise<{ sites: number; sirv: number; sirvDev: number }>((resolve) => {
  createInterface({ input: child.stdout }).once('line', (text) => resolve(JSON.parse(text)));
});

type Target = 'sites' | 'sirv' | 'sirvDev';
const hostOf = (target: Target) =>
  target === 'sites' ? `bench.localhost:${ports.sites}` : `127.0.0.1:${ports[target]}`;

function etagOf(target: Target, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port: ports[target], path, setHost: false, headers: { host: hostOf(target) } },
      (response) => {
        response.resume();
        const etag = response.headers.etag;
        if (etag === undefined) reject(new Error(`${target} sent no ETag for ${path} (status ${response.statusCode})`));
        else resolve(etag);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function load(
  target: Target,
  path: string,
  headers: Record<string, string>,
  expect: number,
  duration = seconds,
): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${ports[target]}${path}`,
    connections,
    duration,
    headers: { host: hostOf(target), ...headers },
  });
  const wrong = result.non2xx - (expect === 304 ? (result['3xx'] ?? 0) : 0);
  if (result.errors > 0 || wrong > 0)
    throw new Error(`${target} ${path}: ${result.errors} errors, ${wrong} unexpected statuses`);
  return result.requests.average;
}

line(
  `static files: requests/s over loopback, ${connections} connections, ${seconds} s each (servers in one child process)`,
);
line('case            gateway sites      sirv   sirv dev   sites/sirv   sites/sirv dev');
const cases: [string, string, (target: Target) => Promise<Record<string, string>>, number][] = [
  ['small (1 KiB)', '/small.html', async () => ({}), 200],
  ['1 MiB file', '/large.bin', async () => ({}), 200],
  ['304 small', '/small.html', async (target) => ({ 'if-none-match': await etagOf(target, '/small.html') }), 304],
];
for (const [name, path, headers, status] of cases) {
  const rates: Record<Target, number> = { sites: 0, sirv: 0, sirvDev: 0 };
  for (const target of ['sites', 'sirv', 'sirvDev'] as const) {
    await load(target, path, await headers(target), status, 1); // warm-up
    rates[target] = await load(target, path, await headers(target), status);
  }
  line(
    `${name.padEnd(14)} ${rates.sites.toFixed(0).padStart(14)} ${rates.sirv.toFixed(0).padStart(9)} ${rates.sirvDev.toFixed(0).padStart(10)} ${(rates.sites / rates.sirv).toFixed(2).padStart(12)} ${(rates.sites / rates.sirvDev).toFixed(2).padStart(16)}`,
  );
}
child.stdin.end();
await new Promise((resolve) => child.once('exit', resolve));
await rm(dir, { recursive: true, force: true });
