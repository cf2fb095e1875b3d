// pnpm bench (in packages/gateway), the dashboard part: builds the dashboard and prints what a browser
// downloads on a first visit (index.html and every asset it names), raw, gzip and brotli (quality 11, as the
// gateway serves it), and the largest packages in the JavaScript (from the bundler's module list).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

const configFile = fileURLToPath(new URL('../dashboard/vite.config.ts', import.meta.url));
// A folder of its own: the package's dist/ui may be in use by a gateway or a test.
const outDir = await mkdtemp(join(tmpdir(), 'boxagnts-dashboard-size-'));
const output = (await build({ configFile, logLevel: 'silent', build: { outDir, emptyOutDir: true } })) as
  | Rollup.RollupOutput
  | Rollup.RollupOutput[];
const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => result.output);

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const sizes = (body: Buffer) => ({
  raw: body.length,
  gzip: gzipSync(body, { level: 9 }).length,
  br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});

const html = await readFile(join(outDir, 'index.html'));
const files = [
  'index.html',
  ...[...html.toString().matchAll(/(?:src|href)="\/ui\/(assets\/[^"]+)"/g)].map((m) => m[1] as string),
];
const total = { raw: 0, gzip: 0, br: 0 };
process.stdout.write('dashboard first load (what /ui/ downloads):\n');
for (const file of files) {
  const size = sizes(await readFile(join(outDir, file)));
  total.raw += size.raw;
  total.gzip += size.gzip;
  total.br += size.br;
  process.stdout.write(
    `  ${file.padEnd(40)} ${kib(size.raw).padStart(10)} raw ${kib(size.gzip).padStart(10)} gzip ${kib(size.br).padStart(10)} br\n`,
  );
}
process.stdout.write(
  `  ${'total'.padEnd(40)} ${kib(total.raw).padStart(10)} raw ${kib(total.gzip).padStart(10)} gzip ${kib(total.br).padStart(10)} br\n`,
);
const lazy = chunks.filter((chunk) => chunk.type === 'chunk' && !files.includes(chunk.fileName));
for (const chunk of lazy) {
  if (chunk.type !== 'chunk') continue;
  const size = sizes(Buffer.from(chunk.code));
  const page = chunk.facadeModuleId?.match(/pages\/\w+\/(\w+)\.tsx$/)?.[1] ?? 'shared';
  process.stdout.write(
    `  on demand: ${`${chunk.fileName} (${page})`.padEnd(40)} ${kib(size.raw).padStart(10)} raw ${kib(size.gzip).padStart(10)} gzip ${kib(size.br).padStart(10)} br\n`,
  );
}
const byPackage = new Map<string, number>();
for (const chunk of chunks) {
  if (chunk.type !== 'chunk') continue;
  for (const [id, info] of Object.entries(chunk.modules)) {
    const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(id);
    const name = match?.[1] ?? 'dashboard (own code)';
    byPackage.set(name, (byPackage.get(name) ?? 0) + info.renderedLength);
  }
}
process.stdout.write('largest parts of the JavaScript (rendered, before minification of the whole):\n');
for (const [name, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 10)) {
  process.stdout.write(`  ${name.padEnd(40)} ${kib(bytes).padStart(10)}\n`);
}
await rm(outDir, { recursive: true, force: true });
