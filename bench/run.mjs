#!/usr/bin/env node
// What a user who npm-installs the packages pays, measured on the real tarballs in a fresh app outside the
// monorepo, against the AI SDK (`ai` + `@ai-sdk/anthropic`) installed the same way, in the same run:
//
// 1. cold import of each package: CPU, wall time and RSS of `await import(name)` in a fresh Node process,
//    against importing the AI SDK (and an empty import, the cost of Node itself);
// 2. a whole small agent (one tool call, then the answer, on the testkit mock over the Anthropic protocol):
//    bench/agents/boxagnts-agent.mjs against bench/agents/ai-sdk-agent.mjs, each run a fresh process, the two
//    interleaved round by round (the order flips every round), CPU, wall time since the process started and
//    peak RSS; goal: within 1.5x of the AI SDK's time and memory;
// 3. install size: `du` of node_modules after `npm install` of one package's tarball (with the tarballs of
//    the @boxagnts packages it depends on) into an empty app, and the count of packages installed.
//
//   pnpm bench                        # from the repository root (every package's bench, this one included)
//   node bench/run.mjs [--rounds 7] [--no-build] [--no-install-size]
//
// Installs use `npm install --prefer-offline --ignore-scripts` (better-sqlite3's native build is left out of
// the sizes of workspace and gateway: it has no prebuilt binary here). Results also go to .bench/packages.json.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packPackage, publishedPackages, run } from '../scripts/check-packages.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const roundsArg = args.indexOf('--rounds');
const ROUNDS = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 5;
const benchManifest = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const PEERS = {
  ai: benchManifest.devDependencies.ai,
  '@ai-sdk/anthropic': benchManifest.devDependencies['@ai-sdk/anthropic'],
  zod: benchManifest.devDependencies.zod,
};
const NPM_INSTALL = ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const say = (line = '') => process.stdout.write(`${line}\n`);
const pad = (text, width) => String(text).padEnd(width);
const num = (value, digits = 0) => value.toFixed(digits).padStart(7);

function must(result, what) {
  if (!result.ok) throw new Error(`${what} failed:\n${result.output.slice(-3000)}`);
  return result;
}

/** Like `run`, without blocking this process's event loop. */
function runAsync(command, commandArgs, options) {
  return new Promise((done) => {
    const child = spawn(command, commandArgs, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => done({ ok: false, output: `${output}${error}` }));
    child.on('close', (code) => done({ ok: code === 0, output }));
  });
}

function installApp(dir, dependencies) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-app', private: true, dependencies }));
  must(run('npm', NPM_INSTALL, { cwd: dir }), `npm install in ${dir}`);
}

/** The @boxagnts packages `name` needs at run time, itself included. */
function closure(name, byName) {
  const seen = new Set();
  const visit = (current) => {
    if (seen.has(current)) return;
    seen.add(current);
    const manifest = byName.get(current);
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (byName.has(dep)) visit(dep);
    }
  };
  visit(name);
  return [...seen];
}

/** One fresh Node process importing `specifiers` from the app; its own CPU, wall and RSS for the imports. */
function importOnce(app, specifiers) {
  const result = must(run(process.execPath, [join(app, 'import-probe.mjs'), ...specifiers], { cwd: app }), 'import');
  return JSON.parse(result.output);
}

function benchImports(app, packages) {
  writeFileSync(
    join(app, 'import-probe.mjs'),
    `const started = performance.now();\nconst cpu0 = process.cpuUsage();\n` +
      `for (const specifier of process.argv.slice(2)) await import(specifier);\n` +
      `const cpu = process.cpuUsage(cpu0);\n` +
      `process.stdout.write(JSON.stringify({ wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, rssMb: process.memoryUsage().rss / 2 ** 20 }));\n`,
  );
  const candidates = [
    { label: '(empty: Node itself)', specifiers: ['node:path'] },
    { label: 'ai + @ai-sdk/anthropic', specifiers: ['ai', '@ai-sdk/anthropic'] },
    ...packages.map((pkg) => ({ label: pkg.name, specifiers: [pkg.name] })),
    { label: 'api + query + tools', specifiers: ['@boxagnts/api', '@boxagnts/query', '@boxagnts/tools'] },
  ];
  const samples = new Map(candidates.map((candidate) => [candidate.label, []]));
  importOnce(
    app,
    candidates.flatMap((candidate) => candidate.specifiers),
  ); // warm the disk cache
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const candidate of round % 2 ? [...candidates].reverse() : candidates) {
      samples.get(candidate.label).push(importOnce(app, candidate.specifiers));
    }
  }
  const rows = candidates.map((candidate) => {
    const list = samples.get(candidate.label);
    return {
      label: candidate.label,
      cpuMs: median(list.map((sample) => sample.cpuMs)),
      wallMs: median(list.map((sample) => sample.wallMs)),
      rssMb: median(list.map((sample) => sample.rssMb)),
    };
  });
  const baseline = rows[1];
  say(`Cold import in a fresh process (median of ${ROUNDS}; ratios against ai + @ai-sdk/anthropic)`);
  say(`${pad('package', 28)}  CPU ms    x AI  wall ms    x AI  RSS MB    x AI`);
  for (const row of rows) {
    say(
      `${pad(row.label, 28)} ${num(row.cpuMs)} ${num(row.cpuMs / baseline.cpuMs, 2)} ${num(row.wallMs)} ${num(row.wallMs / baseline.wallMs, 2)} ${num(row.rssMb)} ${num(row.rssMb / baseline.rssMb, 2)}`,
    );
  }
  return rows;
}

async function benchAgents(app) {
  const testkit = await import(
    pathToFileURL(join(app, 'node_modules', '@boxagnts', 'testkit', 'dist', 'index.js')).href
  );
  const script = {
    steps: [
      { content: [{ type: 'tool_call', name: 'word_count', input: { text: 'one two three' } }] },
      { text: 'Three words.' },
    ],
  };
  const agents = [
    { label: 'boxagnts (api + query + tools)', file: 'boxagnts-agent.mjs' },
    { label: 'AI SDK (ai + @ai-sdk/anthropic)', file: 'ai-sdk-agent.mjs' },
  ];
  const samples = new Map(agents.map((agent) => [agent.label, []]));
  const once = async (agent) => {
    const mock = await testkit.startMockServer({ script });
    try {
      const started = performance.now();
      // Asynchronously: the mock server answers from this process's event loop.
      const result = await runAsync(process.execPath, [join(app, agent.file), mock.url], { cwd: app });
      const spawnWallMs = performance.now() - started;
      let measured;
      try {
        measured = JSON.parse(result.output);
      } catch {
        throw new Error(`${agent.label} printed no measurement:\n${result.output.slice(-3000)}`);
      }
      if (!result.ok || !measured.ok) throw new Error(`${agent.label} did not finish the task: ${result.output}`);
      if (mock.requests.length !== 2) throw new Error(`${agent.label} made ${mock.requests.length} model calls, not 2`);
      return { ...measured, spawnWallMs };
    } finally {
      await mock.close();
    }
  };
  for (const agent of agents) await once(agent); // warm-up, not counted
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const agent of round % 2 ? [...agents].reverse() : agents) samples.get(agent.label).push(await once(agent));
  }
  const rows = agents.map((agent) => {
    const list = samples.get(agent.label);
    return {
      label: agent.label,
      cpuMs: median(list.map((sample) => sample.cpuMs)),
      wallMs: median(list.map((sample) => sample.wallMs)),
      spawnWallMs: median(list.map((sample) => sample.spawnWallMs)),
      maxRssMb: median(list.map((sample) => sample.maxRssMb)),
    };
  });
  const [ours, baseline] = rows;
  say();
  say(`A whole small agent, one tool call on the testkit, fresh process per run (median of ${ROUNDS}, interleaved)`);
  say(`${pad('agent', 32)}  CPU ms  wall ms  exit ms  peak RSS MB`);
  for (const row of rows) {
    say(`${pad(row.label, 32)} ${num(row.cpuMs)}  ${num(row.wallMs)}  ${num(row.spawnWallMs)}  ${num(row.maxRssMb)}`);
  }
  const ratios = {
    cpu: ours.cpuMs / baseline.cpuMs,
    wall: ours.wallMs / baseline.wallMs,
    exit: ours.spawnWallMs / baseline.spawnWallMs,
    memory: ours.maxRssMb / baseline.maxRssMb,
  };
  const verdict = (ratio) => (ratio <= 1.5 ? 'within the 1.5x goal' : 'over the 1.5x goal');
  say(
    `boxagnts / AI SDK: CPU ${ratios.cpu.toFixed(2)}x, wall ${ratios.wall.toFixed(2)}x (${verdict(ratios.wall)}), ` +
      `until exit ${ratios.exit.toFixed(2)}x, peak RSS ${ratios.memory.toFixed(2)}x (${verdict(ratios.memory)})`,
  );
  return { rows, ratios };
}

function benchInstallSizes(work, packages, packed) {
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const targets = [
    ...packages.map((pkg) => ({ label: pkg.name, names: closure(pkg.name, byName), extra: {} })),
    {
      label: 'api + query + tools',
      names: [...new Set(['@boxagnts/api', '@boxagnts/query', '@boxagnts/tools'].flatMap((n) => closure(n, byName)))],
      extra: {},
    },
    { label: 'ai + @ai-sdk/anthropic + zod', names: [], extra: PEERS },
  ];
  const rows = [];
  for (const [index, target] of targets.entries()) {
    const dir = join(work, `size-${index}`);
    const dependencies = {
      ...Object.fromEntries(target.names.map((name) => [name, `file:${packed.get(name)}`])),
      ...target.extra,
    };
    installApp(dir, dependencies);
    const kilobytes = Number(must(run('du', ['-sk', join(dir, 'node_modules')]), 'du').output.split(/\s/)[0]);
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    const count = Object.keys(lock.packages ?? {}).filter((key) => key.startsWith('node_modules/')).length;
    rows.push({ label: target.label, megabytes: kilobytes / 1024, packages: count });
    rmSync(dir, { recursive: true, force: true });
  }
  const baseline = rows.at(-1);
  say();
  say('Install size: du of node_modules after npm install of the tarball (and its @boxagnts dependencies)');
  say(`${pad('package', 30)}      MB  packages    x AI`);
  for (const row of rows) {
    say(
      `${pad(row.label, 30)} ${num(row.megabytes, 1)}  ${num(row.packages)}  ${num(row.megabytes / baseline.megabytes, 2)}`,
    );
  }
  return rows;
}

async function main() {
  const started = Date.now();
  const packages = publishedPackages(root);
  const work = mkdtempSync(join(tmpdir(), 'boxagnts-bench-packages-'));
  try {
    if (!args.includes('--no-build')) {
      must(run('pnpm', ['-r', '--filter', './packages/*', 'run', 'build'], { cwd: root }), 'pnpm build');
    }
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    const packed = new Map();
    for (const pkg of packages) {
      const { file, failure } = packPackage(pkg, tarballs);
      if (failure) throw new Error(`pnpm pack of ${pkg.name} failed:\n${failure}`);
      packed.set(pkg.name, file);
    }
    const app = join(work, 'app');
    installApp(app, {
      ...Object.fromEntries([...packed].map(([name, file]) => [name, `file:${file}`])),
      ...PEERS,
    });
    for (const file of ['boxagnts-agent.mjs', 'ai-sdk-agent.mjs']) cpSync(join(here, 'agents', file), join(app, file));
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ ...JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')), type: 'module' }),
    );
    say(
      `bench/packages: Node ${process.version}, ${ROUNDS} rounds, AI SDK ai@${PEERS.ai} @ai-sdk/anthropic@${PEERS['@ai-sdk/anthropic']}`,
    );
    say();
    const imports = benchImports(app, packages);
    const agents = await benchAgents(app);
    const sizes = args.includes('--no-install-size') ? undefined : benchInstallSizes(work, packages, packed);
    const out = join(root, '.bench');
    if (!existsSync(out)) mkdirSync(out);
    writeFileSync(
      join(out, 'packages.json'),
      `${JSON.stringify({ node: process.version, rounds: ROUNDS, date: new Date().toISOString(), imports, agents, sizes }, null, 2)}\n`,
    );
    say();
    say(`bench/packages: done in ${((Date.now() - started) / 1000).toFixed(0)} s (results in .bench/packages.json)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
