// HTTP components built from source for the tests that must run everywhere (BoxAgnts' prebuilt
// web-fetch and static site components exist only where ../shared/fixtures/boxagnts does):
//
// - `web-fetch`: a command component (`wasi:cli/run`) like BoxAgnts' web-fetch tool, making its
//   request with `fetch()` through `wasi:http/outgoing-handler` (test-components/http-web-fetch.js);
// - `site`: a `wasi:http/incoming-handler` component like BoxAgnts' static site server, with its
//   basic-auth settings from `wasi:config/store` (test-components/http-site.js).
//
// Built with componentize-js (SpiderMonkey/StarlingMonkey; a devDependency), not componentize-qjs:
// componentize-qjs 0.4.5 cannot build a guest that imports `wasi:http/types`, even with the full
// WASI 0.2.12 WIT (the version its own runtime imports): its pre-initialisation linker refuses the
// import ("instance export `io-error` has the wrong type: mismatched resource types").
// componentize-js brings its own `fetch()`, and its dependency jco ships the WASI 0.2.12 WIT, which
// the setup below renames to 0.2.10, the version componentize-js's engine imports and exports (0.2
// patch releases define the same interfaces; jco's own 0.2.10 folder is incomplete). So no WASI WIT
// is kept in this repository; wasi:config, which jco does not ship, is written below. The build
// runs in a child process (test-components/build-with-componentize-js.mjs).
//
// A build takes 40-90 s on a loaded 2-core machine (12 MB components), so each output is cached
// under the system temp folder by a hash of the builder's version, the worlds and the guest
// source: the first test run on a machine builds, later runs (and the other test files of the
// same run) reuse it. Writes are atomic, so concurrent test workers share the cache safely.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_DIR } from './test-fixtures.js';

/** The WASI version componentize-js 0.23's engine (StarlingMonkey) imports and exports. */
const ENGINE_WASI = '0.2.10';

const WASI_CONFIG_WIT = `package wasi:config@0.2.0-draft;

interface store {
  variant error {
    upstream(string),
    io(string),
  }
  get: func(key: string) -> result<option<string>, error>;
  get-all: func() -> result<list<tuple<string, string>>, error>;
}
`;

const WORLDS_WIT = `package boxagnts-test:http-components;

world web-fetch {
  import wasi:cli/environment@0.2.10;
  export wasi:cli/run@0.2.10;
}

world site {
  import wasi:config/store@0.2.0-draft;
  import wasi:filesystem/preopens@0.2.10;
  import wasi:filesystem/types@0.2.10;
  export wasi:http/incoming-handler@0.2.10;
}
`;

/** The WASI packages the worlds use, as jco names their folders. */
const WASI_PACKAGES = [
  'wasi-cli',
  'wasi-clocks',
  'wasi-filesystem',
  'wasi-http',
  'wasi-io',
  'wasi-random',
  'wasi-sockets',
];

const COMPONENTS = {
  // The file name BoxAgnts gives its web-fetch tool, so the runtime recognises it without a manifest.
  'web-fetch': { source: 'http-web-fetch.js', file: 'web-fetch-component.wasm' },
  site: { source: 'http-site.js', file: 'static-site-component.wasm' },
} as const;

/** Which from-source HTTP component to build. */
export type HttpTestComponent = keyof typeof COMPONENTS;

const execFileAsync = promisify(execFile);

async function builder(): Promise<{ version: string; witDeps: string }> {
  const packageDir = await realpath(join(PACKAGE_DIR, 'node_modules', '@bytecodealliance', 'componentize-js'));
  const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  // pnpm puts componentize-js's own dependencies beside it.
  const witDeps = join(dirname(packageDir), 'jco', 'lib', 'wit', 'builtin', '0.2.12');
  if (!existsSync(join(witDeps, 'wasi-http'))) {
    throw new Error(`The WASI 0.2.12 WIT of componentize-js's jco dependency is missing (looked in ${witDeps}).`);
  }
  return { version, witDeps };
}

async function prepareWit(cacheRoot: string, witDeps: string, key: string): Promise<string> {
  const wit = join(cacheRoot, `wit-${key}`);
  if (existsSync(join(wit, 'world.wit'))) return wit;
  const staging = `${wit}.${randomBytes(6).toString('hex')}`;
  await mkdir(join(staging, 'deps', 'wasi-config'), { recursive: true });
  for (const name of WASI_PACKAGES) {
    const text = await readFile(join(witDeps, name, 'package.wit'), 'utf8');
    await mkdir(join(staging, 'deps', name));
    await writeFile(join(staging, 'deps', name, 'package.wit'), text.replaceAll('@0.2.12', `@${ENGINE_WASI}`));
  }
  await writeFile(join(staging, 'deps', 'wasi-config', 'store.wit'), WASI_CONFIG_WIT);
  await writeFile(join(staging, 'world.wit'), WORLDS_WIT);
  // Another worker may have won the race: its folder is the same.
  await rename(staging, wit).catch(() => undefined);
  return wit;
}

/**
 * Builds (or reuses from the temp-folder cache) one of the from-source HTTP components and returns
 * the path of its `.wasm`.
 */
export function buildHttpTestComponent(name: HttpTestComponent): Promise<string> {
  let built = builds.get(name);
  if (built === undefined) {
    built = build(name);
    builds.set(name, built);
  }
  return built;
}

const builds = new Map<HttpTestComponent, Promise<string>>();

async function build(name: HttpTestComponent): Promise<string> {
  const { source, file } = COMPONENTS[name];
  const sourcePath = join(PACKAGE_DIR, 'test-components', source);
  const { version, witDeps } = await builder();
  const key = createHash('sha256')
    .update(`${version}\0${WORLDS_WIT}\0${WASI_CONFIG_WIT}\0${name}\0`)
    .update(await readFile(sourcePath))
    .digest('hex')
    .slice(0, 24);
  const cacheRoot = join(tmpdir(), 'boxagnts-http-test-components');
  const output = join(cacheRoot, key, file);
  if (existsSync(output)) return output;
  await mkdir(join(cacheRoot, key), { recursive: true });
  const witPath = await prepareWit(
    cacheRoot,
    witDeps,
    createHash('sha256').update(`${witDeps}\0${WORLDS_WIT}\0${WASI_CONFIG_WIT}`).digest('hex').slice(0, 12),
  );
  const script = join(PACKAGE_DIR, 'test-components', 'build-with-componentize-js.mjs');
  try {
    await execFileAsync(process.execPath, [script, sourcePath, witPath, name, output], {
      env: { ...process.env, NODE_OPTIONS: '' },
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`Building the ${name} test component with componentize-js failed: ${stderr || String(error)}`);
  }
  return output;
}
