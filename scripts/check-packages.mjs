#!/usr/bin/env node
// What a user who npm-installs the packages gets, checked on the real tarballs:
//
//   node scripts/check-packages.mjs            # build, pack, install into a temp app, check (about 1-2 min)
//   node scripts/check-packages.mjs --no-build # pack what is already built
//   node scripts/check-packages.mjs --keep     # keep the temp folder (tarballs and app) to look into
//
// 1. builds every package (`pnpm build`) and packs it (`pnpm pack`, which turns `workspace:*` into versions);
// 2. checks each tarball: the root LICENSE, repository/homepage/bugs, a `default` condition after `types` in
//    every `exports` entry, no test files or test declarations, no `.d.ts.map`, and JS source maps that carry
//    their sources (so nothing points at a file that is not shipped);
// 3. installs all tarballs with npm into a fresh app in the system temp folder, outside the monorepo, with an
//    app-owned zod of another 4.x minor than the repository's (`--prefer-offline`; `--ignore-scripts`, so
//    better-sqlite3 is not compiled: only loading is checked here, and it loads its binding lazily);
// 4. `require()`s every entry point (main and `exports` subpaths) from a CommonJS folder and `import`s it from
//    an ESM folder of that app;
// 5. type-checks (TypeScript, `module: nodenext`) and runs a CommonJS TypeScript consumer that defines a tool
//    with the app's own zod, validates and runs it, and finds the built-in skills of @boxagnts/tools;
// 6. checks that every package with zod as a peer dependency (where zod appears in its public types) uses the
//    app's own copy;
// 7. runs the sandbox from the installed tarballs, as the wasm-tools README shows it (a tool set with the
//    sandbox's tool source): `read` and `edit` in the component worker, `bash` and `js_exec` on their worker
//    threads, `web_fetch` converting a loopback page on its HTML thread, and BoxAgnts' static site component
//    served through `createComponentHttpHandler` (its worker-http), each from the bundled `dist/` files; the
//    site check is reported skipped where ../shared/fixtures/boxagnts is absent.
//
// Prints one `ok` or `FAIL` line per check and writes the counts as a vitest-shaped JSON report that
// scripts/report-node-counts.mjs reads (default node_modules/.cache/check-packages-report.json, or
// --report <path>). Exits 1 when a check failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const reportPath = resolve(option('--report') ?? join(root, 'node_modules', '.cache', 'check-packages-report.json'));
/** The app's own zod: another minor than the repository's 4.6.7, and the lowest the peer range admits. */
export const APP_ZOD = '4.5.4';
const APP_TYPES_NODE = '20.19.43';

const results = [];
function record(name, failure) {
  results.push({ name, failure });
  process.stdout.write(
    failure ? `check-packages: FAIL ${name}\n${indent(failure)}\n` : `check-packages: ok   ${name}\n`,
  );
}
/** A check that could not run here, with the reason. */
function skip(name, reason) {
  results.push({ name, skipped: reason });
  process.stdout.write(`check-packages: skip ${name} (${reason})\n`);
}
const indent = (text) =>
  String(text)
    .trim()
    .split('\n')
    .slice(0, 40)
    .map((line) => `    ${line}`)
    .join('\n');

function step(label, fn) {
  const started = Date.now();
  const value = fn();
  process.stdout.write(`check-packages: ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  return value;
}

/** The published packages: packages/* that are not private. */
export function publishedPackages(repositoryRoot) {
  const dir = join(repositoryRoot, 'packages');
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'package.json')))
    .map((name) => ({
      folder: name,
      dir: join(dir, name),
      ...JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8')),
    }))
    .filter((manifest) => !manifest.private)
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

/** `pnpm pack`s one package into `destination`: `{ file }` (the tarball's path) or `{ failure }`. */
export function packPackage(pkg, destination) {
  const result = run('pnpm', ['pack', '--pack-destination', destination], { cwd: pkg.dir });
  const file = join(destination, `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`);
  if (!result.ok || !existsSync(file)) return { failure: result.output.slice(-2000) || `no ${file} written` };
  return { file };
}

/** The specifiers a user can load from a package: `.` and each subpath of `exports` with conditions. */
export function entryPoints(manifest) {
  return Object.entries(manifest.exports ?? { '.': manifest.main })
    .filter(([key, entry]) => key === '.' || (entry && typeof entry === 'object' && !key.includes('*')))
    .map(([key]) => (key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`));
}

/** Runs a command to its end: `{ ok, output, seconds }`. */
export function run(command, commandArgs, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
  return { ok: result.status === 0, output, seconds: (Date.now() - started) / 1000 };
}

/** Problems of one unpacked tarball (`package/` folder), as strings; empty when it is clean. */
export function tarballProblems(packageDir, rootLicense) {
  const problems = [];
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const license = join(packageDir, 'LICENSE');
  if (!existsSync(license)) problems.push('no LICENSE in the tarball');
  else if (readFileSync(license, 'utf8') !== rootLicense) problems.push('LICENSE differs from the repository LICENSE');
  if (!manifest.repository?.url || !manifest.repository?.directory) problems.push('no repository url and directory');
  if (!manifest.homepage) problems.push('no homepage');
  if (!manifest.bugs?.url) problems.push('no bugs url');
  for (const [key, entry] of Object.entries(manifest.exports ?? {})) {
    if (!entry || typeof entry !== 'object') continue;
    const conditions = Object.keys(entry).filter((condition) => condition !== '@boxagnts/source');
    if (conditions[0] !== 'types')
      problems.push(`exports["${key}"]: "types" must come first, got ${conditions.join(', ')}`);
    if (conditions.at(-1) !== 'default')
      problems.push(`exports["${key}"] has no "default" condition last: require() fails`);
    for (const condition of conditions) {
      if (!existsSync(join(packageDir, entry[condition])))
        problems.push(`exports["${key}"].${condition}: ${entry[condition]} is not in the tarball`);
    }
  }
  const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
  for (const target of [manifest.main, manifest.types, ...bins].filter(Boolean)) {
    if (!existsSync(join(packageDir, target))) problems.push(`${target} (main, types or bin) is not in the tarball`);
  }
  // The registry shows the README away from the repository: a relative link there leads nowhere.
  const readme = join(packageDir, 'README.md');
  if (!existsSync(readme)) problems.push('no README.md');
  else {
    for (const [, target] of readFileSync(readme, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^(https?:|mailto:|#)/.test(target)) problems.push(`README.md links to ${target}: use an absolute URL`);
    }
  }
  for (const file of listFiles(packageDir)) {
    const inside = file.slice(packageDir.length + 1);
    if (/(^|\/)node_modules\//.test(inside)) continue;
    if (/\.test[.-]|(^|\/)test\/|(^|\/)test-(support|fixtures)\.|\.tsbuildinfo$/.test(inside)) {
      problems.push(`ships a test file: ${inside}`);
    }
    if (inside.endsWith('.d.ts.map')) problems.push(`ships a declaration map: ${inside}`);
    if (inside.endsWith('.js.map')) {
      const map = JSON.parse(readFileSync(file, 'utf8'));
      const missing = (map.sources ?? []).filter((_, index) => typeof map.sourcesContent?.[index] !== 'string');
      if (missing.length > 0)
        problems.push(`${inside} points at sources it does not carry: ${missing.slice(0, 3).join(', ')}`);
    }
  }
  return problems;
}

function listFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else files.push(path);
  }
  return files;
}

function writeReport() {
  const failed = results.filter((result) => result.failure).length;
  const skipped = results.filter((result) => result.skipped).length;
  const report = {
    numTotalTests: results.length,
    numPassedTests: results.length - failed - skipped,
    numFailedTests: failed,
    numPendingTests: skipped,
    // vitest's report shape: this script has no `it.todo`, so the field is always zero (not unfinished work).
    numTodoTests: 0,
    testResults: [
      {
        name: 'scripts/check-packages.mjs',
        status: failed > 0 ? 'failed' : 'passed',
        assertionResults: results.map((result) => ({
          title: result.name,
          status: result.failure ? 'failed' : result.skipped ? 'pending' : 'passed',
          failureMessages: result.failure ? [String(result.failure)] : [],
        })),
      },
    ],
  };
  mkdirSync(dirname(reportPath), { recursive: true });
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `check-packages: ${results.length - failed - skipped} of ${results.length} checks passed, ${skipped} skipped (report: ${reportPath})\n`,
  );
  return failed;
}

/** The CommonJS TypeScript consumer: a tool on the app's own zod, run through the packages' public entries. */
const CONSUMER_TS = `import { z } from 'zod';
import { builtinSkillsFolder, defineTool, executeTool, loadSkills, textResult, toToolDefinition } from '@boxagnts/tools';
import { runQuery } from '@boxagnts/query';
import { createAnthropicMessagesProvider } from '@boxagnts/api';

const wordCount = defineTool({
  name: 'word_count',
  description: 'Count the words of a text.',
  inputSchema: z.object({ text: z.string().describe('The text to count') }),
  permission: 'read-only',
  async execute({ text }) {
    return textResult(String(text.split(/\\s+/).filter(Boolean).length));
  },
});

async function main(): Promise<void> {
  const context = { root: process.cwd(), signal: new AbortController().signal, sessionId: 's', turnId: 't', toolCallId: 'c' };
  const good = await executeTool(wordCount, { text: 'one two three' }, context);
  const bad = await executeTool(wordCount, { text: 3 }, context);
  const definition = toToolDefinition(wordCount);
  const { skills } = await loadSkills({ folders: [builtinSkillsFolder()] });
  const summary = {
    good: good.isError !== true && JSON.stringify(good.content).includes('3'),
    bad: bad.isError === true,
    schema: JSON.stringify(definition).includes('"text"'),
    skills: skills.map((skill) => skill.name).sort().join(','),
    runQuery: typeof runQuery,
    provider: typeof createAnthropicMessagesProvider,
  };
  process.stdout.write(JSON.stringify(summary));
}
void main();
`;

/** BoxAgnts' prebuilt static site component, beside the clone (../shared); absent elsewhere. */
const SITE_COMPONENT = resolve(
  root,
  '..',
  'shared',
  'fixtures',
  'boxagnts',
  'services',
  'boxed_static_server_component.wasm',
);

/**
 * The sandbox as the wasm-tools README shows it, run from the installed tarballs: every tool whose code
 * runs in a worker (a process or a thread started from a bundled dist/ file) once, and a site component
 * served through createComponentHttpHandler when its path is given. Prints what each returned, as JSON.
 */
const SANDBOX_MJS = `import { createServer } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolSet, nativeToolSource } from '@boxagnts/tools-manager';
import { createComponentHttpHandler, createSandboxToolSource } from '@boxagnts/wasm-tools';

const root = await mkdtemp(join(tmpdir(), 'check-packages-sandbox-'));
const results = {};
const text = (result) => (result.isError ? 'ERROR: ' : '') + result.content.map((block) => block.text ?? '').join('\\n');
const page = '<!doctype html><html><head><title>Notes</title></head><body><article><h1>Port notes</h1>' +
  '<p>The service listens on <b>port 8080</b> behind the proxy, as the notes of this page say at length.</p></article></body></html>';
const server = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page));
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const origin = 'http://127.0.0.1:' + server.address().port;
try {
  await writeFile(join(root, 'notes.md'), '# Notes\\nport 8000\\n');
  const tools = await createToolSet({
    sources: [nativeToolSource(), createSandboxToolSource({ webFetch: { allowedHosts: [origin], trustedAddresses: ['127.0.0.1/32'] } })],
    permissions: { mode: 'bypass' },
  });
  const context = () => ({ root, signal: new AbortController().signal, sessionId: 's', turnId: 't', toolCallId: 'c' });
  try {
    results.read = text(await tools.execute('read', { file_path: 'notes.md' }, context()));
    results.edit = text(await tools.execute('edit', { file_path: 'notes.md', old_string: '8000', new_string: '8080' }, context()));
    results.edited = await readFile(join(root, 'notes.md'), 'utf8');
    results.bash = text(await tools.execute('bash', { command: 'grep -c port notes.md' }, context()));
    results.js_exec = text(await tools.execute('js_exec', { code: '[1, 2, 3].map((n) => n * 7)' }, context()));
    results.web_fetch = text(await tools.execute('web_fetch', { url: origin + '/', format: 'markdown' }, context()));
  } finally {
    await tools.close();
  }
  const sitePath = process.argv[2];
  if (sitePath) {
    const site = join(root, 'site');
    await mkdir(site);
    await writeFile(join(site, 'index.html'), '<h1>Hello from the tarball</h1>');
    const handler = await createComponentHttpHandler({ path: sitePath }, { root: site });
    try {
      const response = await handler(new Request('http://demo.localhost/index.html'));
      results.site = response.status + ' ' + (await response.text());
    } finally {
      await handler.close();
    }
  }
} catch (error) {
  results.error = String(error && error.stack || error);
} finally {
  server.close();
  await rm(root, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(results));
`;

/** What each sandbox check expects in the tool's text (a tool's error result starts with "ERROR: "). */
const SANDBOX_EXPECTED = [
  [
    'read (the file component, in the component worker)',
    (r) => r.read?.includes('port 8000') && !r.read.startsWith('ERROR'),
  ],
  [
    'edit (the file component writes)',
    (r) => r.edit !== undefined && !r.edit.startsWith('ERROR') && r.edited === '# Notes\nport 8080\n',
  ],
  ['bash (the simulated shell, on its worker thread)', (r) => r.bash?.includes('stdout:\n1\n')],
  [
    'js_exec (QuickJS, on its worker thread)',
    (r) => r.js_exec?.includes('[7, 14, 21]') && !r.js_exec.startsWith('ERROR'),
  ],
  [
    'web_fetch (a loopback page converted to Markdown on the HTML thread)',
    (r) => r.web_fetch?.includes('**port 8080**') && !r.web_fetch.startsWith('ERROR'),
  ],
];

const EXPECTED_SUMMARY = {
  good: true,
  bad: true,
  schema: true,
  skills: 'code-review,commit-message,css-refactor-advisor,front-component-generator,test-writer',
  runQuery: 'function',
  provider: 'function',
};

function main() {
  const packages = publishedPackages(root);
  const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');
  const work = mkdtempSync(join(tmpdir(), 'boxagnts-check-packages-'));
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  try {
    if (!args.includes('--no-build')) {
      const build = step('built every package', () =>
        run('pnpm', ['-r', '--no-bail', '--filter', './packages/*', 'run', 'build'], { cwd: root }),
      );
      record('pnpm build of every package', build.ok ? undefined : build.output.slice(-4000));
    }
    const packed = new Map();
    step('packed every package', () => {
      for (const pkg of packages) {
        const { file, failure } = packPackage(pkg, tarballs);
        if (failure) {
          record(`${pkg.name}: pnpm pack`, failure);
          continue;
        }
        packed.set(pkg.name, file);
        const unpacked = join(work, 'unpacked', pkg.folder);
        mkdirSync(unpacked, { recursive: true });
        const untar = run('tar', ['-xzf', file, '-C', unpacked]);
        const problems = untar.ok ? tarballProblems(join(unpacked, 'package'), rootLicense) : [untar.output];
        record(`${pkg.name}: tarball contents`, problems.length > 0 ? problems.join('\n') : undefined);
      }
    });

    const app = join(work, 'app');
    mkdirSync(join(app, 'cjs'), { recursive: true });
    mkdirSync(join(app, 'esm'), { recursive: true });
    mkdirSync(join(app, 'ts-cjs'), { recursive: true });
    const dependencies = Object.fromEntries([...packed].map(([name, file]) => [name, `file:${file}`]));
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify(
        {
          name: 'check-packages-app',
          private: true,
          dependencies: { ...dependencies, zod: APP_ZOD, '@types/node': APP_TYPES_NODE },
        },
        null,
        2,
      ),
    );
    const install = step('installed the tarballs with npm', () =>
      run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: app,
      }),
    );
    record(
      `npm install of the ${packed.size} tarballs into a fresh app`,
      install.ok ? undefined : install.output.slice(-4000),
    );
    if (!install.ok) return;

    // Every entry point: the main one and each conditional subpath of `exports` (`@boxagnts/api/adapter-kit`).
    const names = packages.filter((pkg) => packed.has(pkg.name)).flatMap((pkg) => entryPoints(pkg));
    writeFileSync(join(app, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
    writeFileSync(join(app, 'esm', 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(app, 'ts-cjs', 'package.json'), '{ "type": "commonjs" }\n');
    // One child per format, each package loaded on its own so a failure names it (a fresh process per
    // package would be cleaner but costs 16 Node start-ups on a loaded CI machine).
    step('loaded every package with require() and import', () => {
      const loader = (load) =>
        `const results = {};\nfor (const name of ${JSON.stringify(names)}) {\n  try {\n    const m = ${load};\n` +
        `    results[name] = Object.keys(m).length > 0 ? 'ok' : 'no exports';\n  } catch (error) {\n` +
        `    results[name] = String(error && error.stack || error).split('\\n').slice(0, 6).join('\\n');\n  }\n}\n` +
        `process.stdout.write(JSON.stringify(results));\n`;
      writeFileSync(join(app, 'cjs', 'load-all.cjs'), loader('require(name)'));
      writeFileSync(join(app, 'esm', 'load-all.mjs'), loader('await import(name)'));
      for (const [format, file, label] of [
        ['cjs', 'load-all.cjs', 'require() from a CommonJS app'],
        ['esm', 'load-all.mjs', 'import from an ESM app'],
      ]) {
        const loaded = run(process.execPath, [join(app, format, file)], { cwd: join(app, format) });
        let outcome = {};
        try {
          outcome = JSON.parse(loaded.output);
        } catch {
          outcome = Object.fromEntries(names.map((name) => [name, loaded.output || 'the loader printed nothing']));
        }
        for (const name of names) record(`${name}: ${label}`, outcome[name] === 'ok' ? undefined : outcome[name]);
      }
    });

    step('type-checked and ran a CommonJS TypeScript consumer', () => {
      const consumer = join(app, 'ts-cjs');
      writeFileSync(join(consumer, 'index.ts'), CONSUMER_TS);
      writeFileSync(
        join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            strict: true,
            outDir: 'out',
            types: ['node'],
            skipLibCheck: false,
          },
          include: ['index.ts'],
        }),
      );
      const tsc = join(root, 'node_modules', '.bin', 'tsc');
      const compiled = run(tsc, ['-p', consumer], { cwd: consumer });
      record(
        `TypeScript CommonJS consumer type-checks (defineTool with the app's zod ${APP_ZOD}, strict, skipLibCheck off)`,
        compiled.ok ? undefined : compiled.output,
      );
      if (!compiled.ok) return;
      const ran = run(process.execPath, [join(consumer, 'out', 'index.js')], { cwd: consumer });
      let summary;
      try {
        summary = JSON.parse(ran.output);
      } catch {
        summary = undefined;
      }
      const same = summary && JSON.stringify(summary) === JSON.stringify(EXPECTED_SUMMARY);
      record(
        'TypeScript CommonJS consumer runs: validates and runs a tool, exports its schema, finds the built-in skills',
        ran.ok && same ? undefined : `${ran.output}\nexpected ${JSON.stringify(EXPECTED_SUMMARY)}`,
      );
    });

    // The gateway serves its dashboard from the build it ships: index.html and every asset it names.
    const dashboard = join(app, 'node_modules', '@boxagnts', 'gateway', 'dist', 'ui');
    const indexHtml = join(dashboard, 'index.html');
    const dashboardProblems = [];
    if (!existsSync(indexHtml)) dashboardProblems.push(`no ${indexHtml}`);
    else {
      const html = readFileSync(indexHtml, 'utf8');
      const referenced = [...html.matchAll(/(?:src|href)="\/ui\/(assets\/[^"]+)"/g)].map((match) => match[1]);
      if (!referenced.some((file) => file.endsWith('.js'))) dashboardProblems.push('index.html names no script');
      for (const file of referenced)
        if (!existsSync(join(dashboard, file))) dashboardProblems.push(`${file} is missing`);
      if (/<script(?![^>]*\bsrc=)[^>]*>/.test(html))
        dashboardProblems.push('index.html has an inline script (the CSP refuses it)');
    }
    record(
      '@boxagnts/gateway: ships the built dashboard (index.html and every asset it names, no inline script)',
      dashboardProblems.length === 0 ? undefined : dashboardProblems.join('; '),
    );

    step('ran the sandbox from the tarballs', () => {
      writeFileSync(join(app, 'esm', 'sandbox.mjs'), SANDBOX_MJS);
      const haveSite = existsSync(SITE_COMPONENT);
      const ran = run(process.execPath, [join(app, 'esm', 'sandbox.mjs'), ...(haveSite ? [SITE_COMPONENT] : [])], {
        cwd: join(app, 'esm'),
        timeout: 240_000,
      });
      let outcome;
      try {
        outcome = JSON.parse(ran.output);
      } catch {
        outcome = { error: ran.output || 'the sandbox script printed nothing' };
      }
      const shown = (value) => JSON.stringify(value, null, 1).slice(0, 3000);
      for (const [name, expected] of SANDBOX_EXPECTED) {
        record(`@boxagnts/wasm-tools from the tarball: ${name}`, expected(outcome) ? undefined : shown(outcome));
      }
      const siteCheck =
        "@boxagnts/wasm-tools from the tarball: BoxAgnts' static site component through createComponentHttpHandler (worker-http)";
      if (!haveSite)
        skip(siteCheck, `${SITE_COMPONENT} is absent (../shared/fixtures/boxagnts sits beside the clone in CI)`);
      else record(siteCheck, outcome.site === '200 <h1>Hello from the tarball</h1>' ? undefined : shown(outcome));
    });

    // zod is a peer dependency where it appears in public types: those packages must use the app's copy.
    const appZod = join(app, 'node_modules', 'zod', 'package.json');
    for (const pkg of packages.filter((candidate) => candidate.peerDependencies?.zod)) {
      const probe = run(
        process.execPath,
        [
          '-e',
          "process.stdout.write(require.resolve('zod/package.json', { paths: [process.argv[1]] }))",
          join(app, 'node_modules', pkg.name),
        ],
        { cwd: app },
      );
      record(
        `${pkg.name}: uses the app's own zod ${APP_ZOD} (a peer dependency, ${pkg.peerDependencies.zod})`,
        probe.ok && probe.output === appZod ? undefined : `resolved ${probe.output}, expected ${appZod}`,
      );
    }
  } finally {
    if (args.includes('--keep')) process.stdout.write(`check-packages: kept ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  try {
    main();
  } catch (error) {
    record('check-packages ran to the end', error.stack ?? String(error));
  }
  const failed = writeReport();
  process.stdout.write(`check-packages: done in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  process.exit(failed > 0 ? 1 : 0);
}
