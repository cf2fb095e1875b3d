// Writes the shipped model catalogue (src/catalogue/data/catalogue.json) from models.dev's api.json.
//
//   pnpm --filter @boxagnts/api catalogue:build     from ../shared/data/models.dev-api.json beside the repo
//   pnpm --filter @boxagnts/api catalogue:refresh   from the live https://models.dev/api.json
//
// Options: --source <file>, --refresh, --url <url> (with --refresh), --out <file>, --all (every
// models.dev provider, not only the shipped ones), --check (write nothing; exit 1 when --out differs).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildCatalogue, MODELS_DEV_API_URL } from '../src/catalogue/build-catalogue.js';
import { fetchModelsDevJson } from '../src/catalogue/refresh-catalogue.js';
import { serializeCatalogue } from '../src/catalogue/serialize-catalogue.js';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(packageDir, '../..');
const DEFAULT_SOURCE = resolve(repoRoot, '../shared/data/models.dev-api.json');
const DEFAULT_OUT = resolve(packageDir, 'src/catalogue/data/catalogue.json');

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      source: { type: 'string' },
      refresh: { type: 'boolean', default: false },
      url: { type: 'string' },
      out: { type: 'string' },
      all: { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.url !== undefined && !values.refresh) throw new Error('--url only applies with --refresh.');
  if (values.source !== undefined && values.refresh) throw new Error('Use either --source or --refresh, not both.');

  let json: unknown;
  let from: string;
  if (values.refresh) {
    from = values.url ?? MODELS_DEV_API_URL;
    json = await fetchModelsDevJson({ url: from });
  } else {
    const source = resolve(values.source ?? DEFAULT_SOURCE);
    if (!existsSync(source)) {
      throw new Error(
        `No models.dev catalogue at ${source}. It is read from ../shared/data/models.dev-api.json beside the ` +
          'repository; pass --source <file>, or --refresh to download https://models.dev/api.json.',
      );
    }
    from = relative(process.cwd(), source) || source;
    json = JSON.parse(readFileSync(source, 'utf8')) as unknown;
  }

  const warnings: string[] = [];
  const catalogue = buildCatalogue(json, {
    ...(values.all ? { providers: 'all' as const } : {}),
    onWarning: (message) => warnings.push(message),
  });
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  const text = serializeCatalogue(catalogue);
  const out = resolve(values.out ?? DEFAULT_OUT);
  const summary = `${catalogue.models.length} models from ${catalogue.providers.length} providers, ${Buffer.byteLength(text)} bytes`;

  if (values.check) {
    const current = existsSync(out) ? readFileSync(out, 'utf8') : undefined;
    if (current === text) {
      console.log(`${out} is up to date (${summary}).`);
      return 0;
    }
    console.error(`${out} differs from what ${from} builds (${summary}); run the build without --check.`);
    return 1;
  }
  writeFileSync(out, text);
  console.log(`Wrote ${out}: ${summary}, from ${from}.`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
