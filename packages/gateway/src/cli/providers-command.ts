import {
  type CatalogueModel,
  getDefaultProviderRegistry,
  listCatalogueModels,
  type ProviderStatus,
} from '@boxagnts/api';
import type { Workspace } from '@boxagnts/workspace';
import type { Command } from 'commander';
import { CliError } from './cli-error.js';
import { type CliOutput, type CommonOptions, printJson, withWorkspace } from './cli-workspace.js';

/** Where a provider's key stands: stored in the secrets file, from the environment, not needed, or missing. */
export type KeyState = 'set' | 'environment' | 'not-needed' | 'missing';

/** One row of `boxagnts providers`: never the key, only where it comes from. */
export interface ProviderKeyRow {
  id: string;
  name: string;
  key: KeyState;
  /** `secret:<name>` or `env:<VARIABLE>`, when the key was found. */
  from: string | undefined;
  /** What to do when the key is missing (the variables or secret to set). */
  hint: string | undefined;
}

function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

/** The key state of one provider in a workspace, from secret names, config references and the environment. */
export function providerKeyRow(
  status: ProviderStatus,
  workspace: Workspace,
  secretNames: ReadonlySet<string>,
  env: Readonly<Record<string, string | undefined>>,
): ProviderKeyRow {
  const base = { id: status.id, name: status.name };
  const reference = workspace.config.providers[status.id]?.apiKey;
  if (reference !== undefined) {
    if ('secret' in reference) {
      return secretNames.has(reference.secret)
        ? { ...base, key: 'set', from: `secret:${reference.secret}`, hint: undefined }
        : {
            ...base,
            key: 'missing',
            from: undefined,
            hint: `add the secret "${reference.secret}" to ${workspace.paths.secrets}`,
          };
    }
    return isBlank(env[reference.env])
      ? { ...base, key: 'missing', from: undefined, hint: `set the environment variable ${reference.env}` }
      : { ...base, key: 'environment', from: `env:${reference.env}`, hint: undefined };
  }
  if (secretNames.has(status.id)) return { ...base, key: 'set', from: `secret:${status.id}`, hint: undefined };
  if (status.credentialSource === 'environment') {
    return {
      ...base,
      key: 'environment',
      from: status.credentialVariables.map((name) => `env:${name}`).join(' + '),
      hint: undefined,
    };
  }
  if (status.credentialSource === 'not-needed') return { ...base, key: 'not-needed', from: undefined, hint: undefined };
  const variables = status.apiKeyEnvVars.join(' or ');
  return {
    ...base,
    key: 'missing',
    from: undefined,
    hint: `set ${variables === '' ? 'its credential' : variables} or add the secret "${status.id}" to ${workspace.paths.secrets}`,
  };
}

/** One row of `boxagnts models`. Prices are USD per million tokens; absent when the catalogue has none. */
export interface ModelRow {
  provider: string;
  id: string;
  name: string;
  contextWindow: number | undefined;
  maxOutput: number | undefined;
  inputPerMillion: number | undefined;
  outputPerMillion: number | undefined;
  cacheReadPerMillion: number | undefined;
}

function modelRow(provider: string, model: CatalogueModel): ModelRow {
  return {
    provider,
    id: model.id,
    name: model.name,
    contextWindow: model.contextWindow,
    maxOutput: model.maxOutput,
    inputPerMillion: model.price?.input,
    outputPerMillion: model.price?.output,
    cacheReadPerMillion: model.price?.cacheRead,
  };
}

function usd(value: number | undefined): string {
  return value === undefined ? '-' : `$${value}`;
}

/** Adds `boxagnts providers` and `boxagnts models [--provider P]` to the program. */
export function registerProviderCommands(program: Command, output: CliOutput): void {
  program
    .command('providers')
    .description('each provider with the state of its key (set / from the environment / missing); never the key')
    .option('-d, --dir <dir>', 'the workspace folder', '.')
    .option('--json', 'print JSON for scripts')
    .action((options: CommonOptions) =>
      withWorkspace(options.dir, async (workspace) => {
        const secretNames = new Set(await workspace.secrets.list());
        const rows = getDefaultProviderRegistry()
          .list()
          .map((status) => providerKeyRow(status, workspace, secretNames, process.env));
        if (options.json === true) return printJson(output, rows);
        for (const row of rows) {
          const state = row.key === 'environment' ? 'from environment' : row.key;
          const detail = row.from ?? row.hint;
          output.out(`${row.id.padEnd(22)} ${state.padEnd(16)} ${detail ?? ''}`.trimEnd().concat('\n'));
        }
      }),
    );

  program
    .command('models')
    .description('the models of the catalogue with context window and prices (USD per million tokens)')
    .option('-d, --dir <dir>', 'the workspace folder', '.')
    .option('-p, --provider <id>', 'only this provider (see "boxagnts providers")')
    .option('--json', 'print JSON for scripts')
    .action((options: CommonOptions & { provider?: string }) =>
      withWorkspace(options.dir, async () => {
        const registry = getDefaultProviderRegistry();
        const ids = registry.list().map((status) => status.id);
        if (options.provider !== undefined && !ids.includes(options.provider)) {
          throw new CliError(
            `unknown provider ${JSON.stringify(options.provider)}; run "boxagnts providers" for the ids (e.g. ${ids.slice(0, 3).join(', ')}).`,
          );
        }
        const rows: ModelRow[] = [];
        const seen = new Set<string>();
        for (const id of options.provider === undefined ? ids : [options.provider]) {
          for (const model of listCatalogueModels(id)) {
            if (seen.has(`${id}/${model.id}`)) continue;
            seen.add(`${id}/${model.id}`);
            rows.push(modelRow(id, model));
          }
        }
        if (options.json === true) return printJson(output, rows);
        if (rows.length === 0) output.out(`no catalogue models for ${options.provider ?? 'any provider'}\n`);
        for (const row of rows) {
          const context = row.contextWindow === undefined ? '-' : `${row.contextWindow}`;
          output.out(
            `${row.provider}/${row.id}  context ${context}  in ${usd(row.inputPerMillion)}  out ${usd(row.outputPerMillion)} per 1M\n`,
          );
        }
      }),
    );
}
