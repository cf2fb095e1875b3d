import { CATALOGUE_SOURCE_PROVIDERS } from './catalogue-providers.js';
import type { Catalogue, CatalogueModel, CatalogueProvider } from './catalogue-types.js';
import { SNAPSHOT_SUFFIX } from './model-id-candidates.js';
import { modelsDevModelSchema, modelsDevProviderSchema, toCatalogueModel } from './models-dev-model.js';
import { canonicalCatalogue, canonicalModel } from './serialize-catalogue.js';

/** The live models.dev catalogue: one JSON object keyed by provider id. @see https://models.dev */
export const MODELS_DEV_API_URL = 'https://models.dev/api.json';

/** Options of {@link buildCatalogue}. */
export interface BuildCatalogueOptions {
  /** models.dev provider ids to keep, or `'all'`; default {@link CATALOGUE_SOURCE_PROVIDERS}. */
  providers?: readonly string[] | 'all';
  /** Recorded in the catalogue's `source` field; default `models.dev`. */
  source?: string;
  /** Told about every provider or model left out (missing or failing validation). */
  onWarning?: (message: string) => void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Everything but the names and release date: two rows with equal facts are one model under two ids. */
function modelFacts(model: CatalogueModel): string {
  return JSON.stringify(canonicalModel({ ...model, id: '', name: '', aliases: undefined, releaseDate: undefined }));
}

/**
 * Folds a dated snapshot or `-latest` row into its undated row when the two are the same model (equal
 * limits, prices and capabilities): `claude-sonnet-4-5-20250929` becomes an alias of `claude-sonnet-4-5`.
 * Rows that differ (OpenAI's `gpt-4o-2024-05-13` is priced apart from `gpt-4o`) stay rows of their own.
 */
export function collapseSnapshotAliases(models: readonly CatalogueModel[]): CatalogueModel[] {
  const byId = new Map(models.map((model) => [model.id, model]));
  const extraAliases = new Map<string, string[]>();
  const folded = new Set<string>();
  for (const model of models) {
    const base = model.id.replace(SNAPSHOT_SUFFIX, '');
    const target = base === model.id ? undefined : byId.get(base);
    if (target === undefined || modelFacts(target) !== modelFacts(model)) continue;
    folded.add(model.id);
    extraAliases.set(base, [...(extraAliases.get(base) ?? []), model.id, ...(model.aliases ?? [])]);
  }
  return models
    .filter((model) => !folded.has(model.id))
    .map((model) => {
      const extra = extraAliases.get(model.id);
      return extra ? { ...model, aliases: [...(model.aliases ?? []), ...extra] } : model;
    });
}

function issueSummary(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

function providerModels(
  providerId: string,
  models: Record<string, unknown>,
  warn: (message: string) => void,
): CatalogueModel[] {
  const rows = new Map<string, CatalogueModel>();
  for (const key of Object.keys(models).sort()) {
    const parsed = modelsDevModelSchema.safeParse(models[key]);
    if (!parsed.success) {
      warn(`skipped model ${providerId}/${key}: ${issueSummary(parsed.error)}`);
      continue;
    }
    if (rows.has(parsed.data.id)) {
      warn(`skipped model ${providerId}/${key}: duplicate id ${parsed.data.id}`);
      continue;
    }
    rows.set(parsed.data.id, toCatalogueModel(providerId, parsed.data));
  }
  return collapseSnapshotAliases([...rows.values()]);
}

/**
 * Builds the project's catalogue from models.dev's `api.json` (parsed JSON): keeps the chosen providers,
 * validates each model on its own (an invalid one is skipped with a warning), folds identical snapshots
 * into aliases and returns the rows in canonical order, so the same input always gives the same output.
 * Throws when the input is not models.dev's shape or holds none of the chosen providers.
 *
 * @example
 * const catalogue = buildCatalogue(JSON.parse(readFileSync('models.dev-api.json', 'utf8')));
 * writeFileSync('catalogue.json', serializeCatalogue(catalogue));
 */
export function buildCatalogue(modelsDev: unknown, options: BuildCatalogueOptions = {}): Catalogue {
  if (!isRecord(modelsDev)) {
    throw new TypeError('Not a models.dev api.json: expected a JSON object keyed by provider id.');
  }
  const warn = options.onWarning ?? (() => undefined);
  const wanted =
    options.providers === 'all' ? Object.keys(modelsDev).sort() : (options.providers ?? CATALOGUE_SOURCE_PROVIDERS);
  const providers: CatalogueProvider[] = [];
  const models: CatalogueModel[] = [];
  for (const providerId of wanted) {
    const raw = modelsDev[providerId];
    if (raw === undefined || !Object.hasOwn(modelsDev, providerId)) {
      warn(`models.dev has no provider "${providerId}"`);
      continue;
    }
    const parsed = modelsDevProviderSchema.safeParse(raw);
    if (!parsed.success) {
      warn(`skipped provider ${providerId}: ${issueSummary(parsed.error)}`);
      continue;
    }
    const { name, env, api, doc } = parsed.data;
    providers.push({ id: providerId, name: name ?? providerId, env: env ?? [], api, doc });
    models.push(...providerModels(providerId, parsed.data.models, warn));
  }
  if (models.length === 0) {
    throw new Error(
      `No models found for the providers ${wanted.join(', ')}: the input does not look like models.dev's api.json.`,
    );
  }
  return canonicalCatalogue({
    format: 'boxagnts-model-catalogue',
    version: 1,
    source: options.source ?? 'models.dev',
    providers,
    models,
  });
}
