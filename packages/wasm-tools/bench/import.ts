// Cold import of the built package (dist/) in fresh Node processes, against baselines measured in
// the same run: importing its own dependency @boxagnts/tools alone, and importing the package
// together with the component toolchain and the HTML converters it used to load at import time
// (jco's transpiler, componentize-qjs, linkedom, Readability, Turndown, undici).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));
const EAGER_TOOLCHAIN = [
  '@bytecodealliance/jco-transpile',
  'componentize-qjs',
  'linkedom',
  '@mozilla/readability',
  'turndown',
  'undici',
];

function coldImportMs(specifiers: string[]): number {
  const script = `const t = performance.now(); for (const s of ${JSON.stringify(specifiers)}) await import(s); process.stdout.write(String(performance.now() - t));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PACKAGE_DIR,
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
  });
  return Number(output);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1] as number;

/** Rows for the bench table; empty (with a note) when the package has not been built. */
export function benchImport(runs = 10): Array<{ name: string; median: number; p99: number; baseline?: number }> {
  if (!existsSync(`${PACKAGE_DIR}dist/index.js`)) {
    process.stdout.write(
      '\n(cold import skipped: build the package first, pnpm --filter @boxagnts/wasm-tools build)\n',
    );
    return [];
  }
  const own: number[] = [];
  const tools: number[] = [];
  const eager: number[] = [];
  // Alternating, so load on the machine affects the three alike.
  for (let run = 0; run < runs; run++) {
    own.push(coldImportMs(['@boxagnts/wasm-tools']));
    tools.push(coldImportMs(['@boxagnts/tools']));
    eager.push(coldImportMs(['@boxagnts/wasm-tools', ...EAGER_TOOLCHAIN]));
  }
  return [
    {
      name: `import @boxagnts/wasm-tools (${runs} processes)`,
      median: median(own),
      p99: p99(own),
      baseline: median(tools),
    },
    {
      name: '  with the toolchain loaded eagerly (before)',
      median: median(eager),
      p99: p99(eager),
      baseline: median(own),
    },
    { name: '  @boxagnts/tools alone (its dependency)', median: median(tools), p99: p99(tools) },
  ];
}
