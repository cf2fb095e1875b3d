import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A loader hook that records every package a fresh Node process resolves, then the entry imported
 * the way a user imports it (through tsx, so the sources run without a build).
 */
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
  const { stderr } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: packageDir,
    timeout: 30_000,
  });
  return new Set([...stderr.matchAll(/^loaded:(.+)$/gm)].map((match) => match[1] as string));
}

describe('import cost', () => {
  it('importing the package loads no vendor SDK (they are imported where a call needs them)', async () => {
    const loaded = await packagesLoadedBy(join(packageDir, 'src/index.ts'));
    // The hook itself works: the package's own runtime dependencies do show up.
    expect(loaded.has('undici')).toBe(true);
    expect(loaded.has('zod')).toBe(true);
    for (const heavy of ['@anthropic-ai/sdk', '@smithy/signature-v4', '@aws-crypto/sha256-js']) {
      expect(loaded.has(heavy), `${heavy} was loaded at import`).toBe(false);
    }
  });
});
