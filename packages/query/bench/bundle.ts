import { createRequire, isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface ResolveArgs {
  path: string;
  kind: string;
  resolveDir: string;
  pluginData?: unknown;
}

/** The part of esbuild's API the bench uses (esbuild is tsx's own copy; no types are installed for it). */
interface Esbuild {
  build(options: {
    entryPoints: string[];
    outfile: string;
    bundle: true;
    platform: 'node';
    format: 'esm';
    target: string;
    conditions: string[];
    sourcemap: 'linked';
    logLevel: 'error';
    plugins: Array<{
      name: string;
      setup(build: {
        onResolve(
          options: { filter: RegExp },
          callback: (args: ResolveArgs) => Promise<{ path: string; external: true } | undefined>,
        ): void;
        resolve(
          path: string,
          options: { kind: string; resolveDir: string; pluginData: unknown },
        ): Promise<{ path: string; errors: unknown[] }>;
      }): void;
    }>;
  }): Promise<unknown>;
}

async function loadEsbuild(): Promise<Esbuild | undefined> {
  try {
    const fromTsx = createRequire(import.meta.resolve('tsx'));
    const module = (await import(pathToFileURL(fromTsx.resolve('esbuild')).href)) as Esbuild & { default?: Esbuild };
    return typeof module.build === 'function' ? module : module.default;
  } catch {
    return undefined;
  }
}

const SKIP = Symbol('resolved by the externals plugin');

/**
 * Bundles the bench (its sources and the @boxagnts/* packages' sources) into
 * `bench/.bench/bench-<pid>.mjs` (one file per bench process, so two benches run at once never load
 * each other's bundle; the caller removes it), the way tsup builds the packages: esbuild without tsx's `keepNames`,
 * which would add a `__name()` call to every closure the loop creates and charge it a cost the
 * published build does not have. Third-party packages stay external, imported by their resolved
 * absolute paths (so the dependencies of @boxagnts/api and @boxagnts/tools load from where pnpm put
 * them). Resolves to the file, or undefined when esbuild cannot be loaded.
 */
export async function bundleBench(): Promise<string | undefined> {
  const esbuild = await loadEsbuild();
  if (esbuild === undefined) return undefined;
  const benchDir = dirname(fileURLToPath(import.meta.url));
  const outfile = join(benchDir, '.bench', `bench-${process.pid}.mjs`);
  await esbuild.build({
    entryPoints: [join(benchDir, 'entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@boxagnts/source'],
    sourcemap: 'linked',
    logLevel: 'error',
    plugins: [
      {
        name: 'third-party-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.pluginData === SKIP || args.path.startsWith('@boxagnts/') || isBuiltin(args.path))
              return undefined;
            const resolved = await build.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              pluginData: SKIP,
            });
            if (resolved.errors.length > 0) return undefined;
            return { path: resolved.path, external: true };
          });
        },
      },
    ],
  });
  return outfile;
}
