// Importing @boxagnts/wasm-tools must not load the component toolchain or the HTML converters:
// they load where they are used (a transpile, a build, a page conversion), issue 16.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A loader hook that records every package a fresh Node process resolves. */
const HOOKS = `
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(result.url.replace(/.*node_modules\\/\\.pnpm\\/[^/]+\\//, '/'));
  if (match) process.stderr.write('loaded:' + match[1] + '\\n');
  return result;
}`;

async function packagesLoadedBy(entry: string): Promise<Set<string>> {
  const script = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}));
await import(${JSON.stringify(entry)});
`;
  const { stderr } = await run(
    process.execPath,
    ['--conditions=@boxagnts/source', '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: packageDir, timeout: 30_000 },
  );
  return new Set([...stderr.matchAll(/^loaded:(.+)$/gm)].map((match) => match[1] as string));
}

describe('import cost', () => {
  it('importing the package loads neither the component toolchain nor the HTML converters', async () => {
    const loaded = await packagesLoadedBy(join(packageDir, 'src/index.ts'));
    // The hook works: a dependency the entry does use at import shows up.
    expect(loaded.has('picomatch')).toBe(true);
    for (const heavy of [
      '@bytecodealliance/jco-transpile',
      'componentize-qjs',
      'linkedom',
      '@mozilla/readability',
      'turndown',
      'quickjs-emscripten',
      'just-bash',
      'esbuild',
    ]) {
      expect(loaded.has(heavy), `${heavy} was loaded at import`).toBe(false);
    }
  });
});
