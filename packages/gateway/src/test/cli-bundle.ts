import { rmSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The `boxagnts` entry bundled from the sources into one ES module, for the tests that start the bin many
 * times. Under tsx every start resolved and transformed ~500 modules through a loader thread (about 1.9 s
 * on the 2-core machine, idle); the bundle starts in about half of that, which took the CLI tests from a
 * quarter of the gateway suite's time.
 *
 * It is the same code as the sources, not a second build of them: the workspace packages
 * (`@boxagnts/*`, through their `@boxagnts/source` condition) are inlined; every other package stays an
 * import of the very file it resolves to from the importing source (so pnpm's per-package dependencies
 * still resolve, and native modules load as they do under tsx); and each source file's `import.meta.url`
 * is its own file's URL, so what it finds beside itself (skills, worker scripts, the dashboard, the
 * wasm-tools runtime's files) is found exactly as when it runs from the sources.
 *
 * Built once per test process (about 1.5 s), into a temporary folder removed when the process exits.
 */
let built: Promise<string> | undefined;

export function cliBundle(): Promise<string> {
  built ??= bundle();
  return built;
}

async function bundle(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'boxagnts-cli-bundle-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  const outfile = join(folder, 'main.mjs');
  await build({
    entryPoints: [join(here, '..', 'cli', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@boxagnts/source'],
    logLevel: 'silent',
    plugins: [externalPackagesByPath, ownImportMetaUrl],
  });
  return outfile;
}

/** Packages other than the workspace's own: external, as the absolute file the importer resolves them to. */
const externalPackagesByPath: Plugin = {
  name: 'external-packages-by-path',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('node:') || args.path.startsWith('@boxagnts/') || args.pluginData === 'inner') {
        return undefined;
      }
      const resolved = await context.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'inner',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      // A Node built-in named without `node:` (`fs`, `path`) resolves to itself and is marked external.
      if (resolved.external) return { path: args.path, external: true };
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
  },
};

/** Each bundled source keeps its own `import.meta.url`. */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(context) {
    context.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};
