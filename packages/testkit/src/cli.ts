#!/usr/bin/env node
import { CliUsageError, MockScriptError, parseCli, USAGE } from './cli-options.js';
import { startMockServer } from './server/mock-server.js';

async function main(): Promise<void> {
  const command = await parseCli(process.argv.slice(2));
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const server = await startMockServer({
    ...command.options,
    onRequest: command.quiet
      ? undefined
      : (request) => {
          const route = request.protocol
            ? ` ${request.protocol} model=${request.model || '-'} stream=${request.stream}`
            : '';
          process.stdout.write(`#${request.index} ${request.method} ${request.path}${route}\n`);
        },
  });
  process.stdout.write(`boxagnts-mock listening on ${server.url}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const known = error instanceof CliUsageError || error instanceof MockScriptError;
  process.stderr.write(
    `boxagnts-mock: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(2);
});
