import { defineConfig } from 'tsup';

// Declarations come from `tsc -b` (TypeScript 7 has no JS compiler API for tsup's dts).
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: false,
  clean: false,
  sourcemap: true,
});
