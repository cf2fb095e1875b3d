import { resolve } from 'node:path';
import { isConfigError, type JsonValue, loadConfig, workspacePaths } from '@boxagnts/workspace';
import type { Command } from 'commander';
import { type CliOutput, type CommonOptions, printJson, withWorkspace } from './cli-workspace.js';
import { withConfigLock } from './config-lock.js';
import { parseConfigPath, valueAtPath } from './config-path.js';
import { refuseSecretValue } from './config-secret-guard.js';
import { EXIT_CODES } from './exit-codes.js';
import { printable } from './terminal-text.js';

/** A `config set` value: JSON when it parses as JSON (`42`, `true`, `{"secret":"x"}`), else the text itself. */
export function parseConfigValue(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function show(value: unknown): string {
  return typeof value === 'string' ? printable(value) : JSON.stringify(value, null, 2);
}

/** Adds `boxagnts config get <path>`, `config set <path> <value>` and `config validate` to the program. */
export function registerConfigCommand(program: Command, output: CliOutput): void {
  const config = program.command('config').description('read, change and check boxagnts.json');

  config
    .command('get')
    .argument('<path>', 'a dotted path such as agents.build.model (defaults filled in)')
    .option('-d, --dir <dir>', 'the workspace folder', '.')
    .option('--json', 'print the value as JSON')
    .description('print one value of the resolved config')
    .action((path: string, options: CommonOptions) =>
      withWorkspace(options.dir, async (workspace) => {
        const value = valueAtPath(workspace.config, parseConfigPath(path), path);
        output.out(`${options.json === true ? JSON.stringify(value, null, 2) : show(value)}\n`);
      }),
    );

  config
    .command('set')
    .argument('<path>', 'a dotted path such as agents.build.model')
    .argument('<value>', 'a JSON value, or else taken as a string; keys are refused (use the secrets file)')
    .option('-d, --dir <dir>', 'the workspace folder', '.')
    .option('--json', 'print the new value as JSON')
    .description('change one value of boxagnts.json (comments kept, validated before writing)')
    .action((path: string, text: string, options: CommonOptions) =>
      withWorkspace(options.dir, async (workspace) => {
        const segments = parseConfigPath(path);
        const value = parseConfigValue(text);
        const stored: string[] = [];
        for (const name of await workspace.secrets.list()) {
          const secret = await workspace.secrets.get(name);
          if (secret !== undefined) stored.push(secret.reveal());
        }
        refuseSecretValue(segments, value, stored, workspace.paths.secrets);
        const resolved = await withConfigLock(workspace.paths.state, () => workspace.setConfigValue(segments, value));
        const now = valueAtPath(resolved, segments, path);
        if (options.json === true) return printJson(output, { path, value: now });
        output.out(`${path} = ${JSON.stringify(now)}\n`);
      }),
    );

  config
    .command('validate')
    .option('-d, --dir <dir>', 'the workspace folder', '.')
    .option('--json', 'print { valid, file, reason?, message? }')
    .description('check boxagnts.json: exit 0 when valid, 1 with the reason when not')
    .action(async (options: CommonOptions) => {
      const folder = resolve(options.dir);
      const file = workspacePaths(folder).config;
      try {
        await loadConfig(file, { confineTo: folder });
      } catch (error) {
        if (!isConfigError(error)) throw error;
        if (options.json === true)
          printJson(output, { valid: false, file, reason: error.reason, message: error.message });
        else output.err(`invalid: ${error.message}\n`);
        process.exitCode = EXIT_CODES.error;
        return;
      }
      if (options.json === true) printJson(output, { valid: true, file });
      else output.out(`valid: ${file}\n`);
    });
}
