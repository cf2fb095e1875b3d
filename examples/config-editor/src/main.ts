import { runConfigEditorDemo } from './demo.js';

const print = (text: string, inline = false) => process.stdout.write(inline ? text : `${text}\n`);

runConfigEditorDemo(print)
  .then(({ outcome, config }) => {
    if (outcome.reason !== 'end_turn' || !/^port = 8080$/m.test(config)) {
      process.stderr.write(
        `demo failed: the run ended with ${outcome.reason} and config.toml does not say port = 8080\n`,
      );
      process.exit(1);
    }
    print('config.toml now says port = 8080.');
  })
  .catch((error: unknown) => {
    process.stderr.write(`demo failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  });
