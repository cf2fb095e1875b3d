import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { apiPackageDir } from './package-dir.js';

/** The part of esbuild's API the bench uses (esbuild is tsx's own copy; no types are installed for it). */
interface Esbuild {
  build(options: {
    stdin: { contents: string; resolveDir: string; loader: 'ts'; sourcefile: string };
    outfile: string;
    bundle: true;
    platform: 'node';
    format: 'esm';
    target: string;
    packages: 'external';
    conditions: string[];
    sourcemap: 'linked';
    logLevel: 'error';
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

/**
 * Bundles the bench client (bench sources and the adapters' sources; packages stay external) into
 * `bench/.bench/client.mjs`, the way tsup builds the package: esbuild without tsx's `keepNames`,
 * which would add a `__name()` call to every closure the code creates and so charge closure-heavy
 * code for a cost the published build does not have. Resolves to the file, or undefined when
 * esbuild cannot be loaded (the caller then runs the sources under tsx).
 */
export async function bundleClient(): Promise<string | undefined> {
  const esbuild = await loadEsbuild();
  if (esbuild === undefined) return undefined;
  const benchDir = join(apiPackageDir(), 'bench');
  const outfile = join(benchDir, '.bench', 'client.mjs');
  await esbuild.build({
    stdin: {
      contents: "import { runBench } from './main.ts';\nprocess.exit(await runBench(process.argv.slice(2)));\n",
      resolveDir: benchDir,
      loader: 'ts',
      sourcefile: 'bench-client.ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    conditions: ['@boxagnts/source'],
    sourcemap: 'linked',
    logLevel: 'error',
  });
  return outfile;
}
