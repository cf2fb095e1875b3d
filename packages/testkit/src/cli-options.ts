import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { PROTOCOL_IDS, type ProtocolId } from './protocols/protocol.js';
import { MockScriptError, parseMockScript } from './script/schema.js';
import type { MockScript } from './script/types.js';
import type { MockServerOptions } from './server/mock-server.js';

/** Usage text of the `boxagnts-mock` command. */
export const USAGE = `Usage: boxagnts-mock [options]

Start a mock LLM server on loopback that speaks the Anthropic, OpenAI (Chat and Responses), Gemini,
Bedrock, Cohere and Ollama wire protocols.

Options:
  --script <file>     JSON script to play (steps, rules, chunking)
  --replay <file>     serve a recorded *.chunks.txt or *.json response (repeatable)
  --protocol <id>     protocol of --replay files (${PROTOCOL_IDS.join(', ')})
  --repeat            keep serving the last step when the queue is used up
  --port <n>          port to listen on (default 0: any free port)
  --host <addr>       address to bind (default 127.0.0.1)
  --models <a,b,...>  model ids for GET /v1/models, /api/tags and Gemini's list
  --quiet             do not log requests
  --help              show this text`;

/** Parsed command line: server options, or the help text to print. */
export type CliCommand = { kind: 'help' } | { kind: 'serve'; options: MockServerOptions; quiet: boolean };

/** A command line that cannot be used; the message says what to change. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(`${message}\n\n${USAGE}`);
    this.name = 'CliUsageError';
  }
}

/** Turn argv into server options, reading and validating the script file. */
export async function parseCli(argv: string[]): Promise<CliCommand> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  if (values.help) return { kind: 'help' };
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliUsageError(`--port must be a whole number from 0 to 65535, not "${values.port}"`);
  }
  const protocol = values.protocol as ProtocolId | undefined;
  if (protocol !== undefined && !PROTOCOL_IDS.includes(protocol)) {
    throw new CliUsageError(`--protocol must be one of ${PROTOCOL_IDS.join(', ')}, not "${protocol}"`);
  }
  let script: MockScript = {};
  if (values.script) {
    let text: string;
    try {
      text = await readFile(values.script, 'utf8');
    } catch (error) {
      throw new CliUsageError(`cannot read --script ${values.script}: ${(error as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new CliUsageError(`--script ${values.script} is not JSON: ${(error as Error).message}`);
    }
    script = parseMockScript(json, `script ${values.script}`);
  }
  const replays = (values.replay ?? []).map((path) => ({ replay: path, ...(protocol ? { protocol } : {}) }));
  script = { ...script, steps: [...(script.steps ?? []), ...replays] };
  if (values.repeat) script.repeatLast = true;
  const models = values.models
    ?.split(',')
    .map((model) => model.trim())
    .filter(Boolean);
  return {
    kind: 'serve',
    quiet: values.quiet ?? false,
    options: { script, port, ...(values.host ? { host: values.host } : {}), ...(models ? { models } : {}) },
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      script: { type: 'string' },
      replay: { type: 'string', multiple: true },
      protocol: { type: 'string' },
      repeat: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      models: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

export { MockScriptError };
