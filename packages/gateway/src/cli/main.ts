#!/usr/bin/env node
import { resolve } from 'node:path';
import { openWorkspace } from '@boxagnts/workspace';
import { Command, InvalidArgumentError } from 'commander';
import { isGatewayError } from '../gateway-error.js';
import { isCliError } from './cli-error.js';
import { registerConfigCommand } from './config-command.js';
import { registerCronCommand } from './cron-command.js';
import { EXIT_CODES } from './exit-codes.js';
import { registerImportCommand } from './import-command.js';
import { registerProviderCommands } from './providers-command.js';
import { registerSessionsCommand } from './sessions-command.js';
import { registerSitesCommand } from './sites-command.js';

// A reader that stops early (`boxagnts models | head`) closes the pipe: end quietly, not with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const output = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };

function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('must be a positive number.');
  return number;
}
function port(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > 65_535)
    throw new InvalidArgumentError('must be a TCP port (0-65535).');
  return number;
}

const program = new Command('boxagnts')
  .description('Run BoxAgnts agents from a workspace folder.')
  .showHelpAfterError();

program
  .command('init')
  .description('create a workspace (config, AGENTS.md, root/, skills/, tools/, sites/) in a folder')
  .argument('[dir]', 'the folder', '.')
  .action(async (dir: string) => {
    const workspace = await openWorkspace(resolve(dir));
    output.out(
      `workspace ready: ${workspace.dir}\nconfig: ${workspace.paths.config}\nfiles root: ${workspace.paths.root}\n`,
    );
    await workspace.close();
  });

program
  .command('serve')
  .description('serve the workspace over HTTP (loopback by default; off loopback a token is required)')
  .option('-d, --dir <dir>', 'the workspace folder', '.')
  .option('--host <host>', 'the address to bind (default: the config, 127.0.0.1)')
  .option('-p, --port <port>', 'the port (default: the config, 7433; 0 picks a free one)', port)
  .option('--telemetry', "OpenTelemetry spans of runs, model and tool calls, to the app's registered SDK")
  .option('--no-cron', 'do not fire cron jobs from this gateway')
  .action(async (options: { dir: string; host?: string; port?: number; telemetry?: boolean; cron?: boolean }) => {
    const { startGateway } = await import('../gateway.js');
    const gateway = await startGateway({
      workspace: resolve(options.dir),
      ...(options.cron === false ? { cron: false } : {}),
      ...(options.telemetry === true ? { telemetry: true } : {}),
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.port === undefined ? {} : { port: options.port }),
      log: (entry) => output.err(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`),
    });
    output.out(
      `${JSON.stringify({ url: gateway.url, ...(gateway.sitesListener === undefined ? {} : { sites: gateway.sitesListener.url }), recovered: gateway.recovered })}\n`,
    );
    const stop = () => {
      void gateway.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

program
  .command('run')
  .description(
    'run the agent once on a prompt; the exit code says how it ended (0 done, 1 error, 2 limit, 3 refusal, 130 cancelled)',
  )
  .argument('<prompt>', 'what to ask')
  .option('-d, --dir <dir>', 'the workspace folder', '.')
  .option('-a, --agent <name>', "the agent (default: the config's defaultAgent)")
  .option('-m, --model <provider/model>', 'the model')
  .option('-s, --session <id>', 'continue this session')
  .option('--max-turns <n>', 'most model calls', positiveNumber)
  .option('--budget-usd <usd>', 'stop at this cost', positiveNumber)
  .option('--json', 'one JSON object per event on stdout, the outcome last')
  .action(
    async (
      prompt: string,
      options: {
        dir: string;
        agent?: string;
        model?: string;
        session?: string;
        json?: boolean;
        maxTurns?: number;
        budgetUsd?: number;
      },
    ) => {
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      const { runCommand } = await import('./run-command.js');
      process.exitCode = await runCommand(prompt, { ...options, dir: resolve(options.dir) }, output, controller.signal);
    },
  );

program
  .command('chat')
  .description(
    'an interactive chat: streamed answers, tool cards, /agent, /model, /compact, /cost, /fork, /exit, !command, #note',
  )
  .option('-d, --dir <dir>', 'the workspace folder', '.')
  .option('-a, --agent <name>', "the agent (default: the config's defaultAgent)")
  .option('-m, --model <provider/model>', 'the model')
  .option('-s, --session <id>', 'continue this session')
  .action(async (options: { dir: string; agent?: string; model?: string; session?: string }) => {
    const { chatCommand } = await import('./chat-command.js');
    process.exitCode = await chatCommand({ ...options, dir: resolve(options.dir) }, output);
  });

const token = program.command('token').description('manage the bearer tokens of the gateway');
token
  .command('create')
  .argument('<name>', 'a name for the token (lowercase letters, digits, "_" or "-")')
  .option('-d, --dir <dir>', 'the workspace folder', '.')
  .description('create a token; it is printed once and stored hashed')
  .action(async (name: string, options: { dir: string }) => {
    const { createGateway } = await import('../gateway.js');
    const gateway = await createGateway({
      workspace: resolve(options.dir),
      host: '127.0.0.1',
      recover: false,
      cron: false,
    });
    try {
      output.out(`${gateway.tokens.create(name)}\n`);
    } finally {
      await gateway.close();
    }
  });
token
  .command('revoke')
  .argument('<name>')
  .option('-d, --dir <dir>', 'the workspace folder', '.')
  .action(async (name: string, options: { dir: string }) => {
    const { createGateway } = await import('../gateway.js');
    const gateway = await createGateway({
      workspace: resolve(options.dir),
      host: '127.0.0.1',
      recover: false,
      cron: false,
    });
    try {
      if (!gateway.tokens.revoke(name)) {
        output.err(`no live token "${name}"\n`);
        process.exitCode = EXIT_CODES.error;
      }
    } finally {
      await gateway.close();
    }
  });
token
  .command('list')
  .option('-d, --dir <dir>', 'the workspace folder', '.')
  .action(async (options: { dir: string }) => {
    const { createGateway } = await import('../gateway.js');
    const gateway = await createGateway({
      workspace: resolve(options.dir),
      host: '127.0.0.1',
      recover: false,
      cron: false,
    });
    try {
      output.out(`${JSON.stringify(gateway.tokens.list(), null, 2)}\n`);
    } finally {
      await gateway.close();
    }
  });

registerSessionsCommand(program, output);
registerCronCommand(program, output);
registerSitesCommand(program, output);
registerProviderCommands(program, output);
registerConfigCommand(program, output);
registerImportCommand(program, output);

program.parseAsync(process.argv).catch((error: unknown) => {
  output.err(
    `boxagnts: ${isCliError(error) || isGatewayError(error) || error instanceof Error ? (error as Error).message : String(error)}\n`,
  );
  process.exitCode = EXIT_CODES.error;
});
