import { defineConfig, type Options } from 'tsup';

/**
 * The build every package shares: ESM for Node 20, JS only. Declarations come from `tsc -b`
 * (TypeScript 7 has no JS compiler API for tsup's dts), so `dts` is off and `clean` must not wipe them.
 */
export function packageTsupConfig(entry: string[], overrides: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: false,
    clean: false,
    sourcemap: true,
    ...overrides,
  });
}
