import type { QueryEvent } from '@boxagnts/query';
import { createAgent } from '../agent/create-agent.js';
import { EXIT_CODES, exitCodeFor } from './exit-codes.js';

/** Options of `boxagnts run`. */
export interface RunCommandOptions {
  dir: string;
  agent?: string;
  model?: string;
  session?: string;
  json?: boolean;
  maxTurns?: number;
  budgetUsd?: number;
}

/** Where the command writes: the answer to `out`, progress lines to `err`. */
export interface CommandOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

function progress(event: QueryEvent): string | undefined {
  switch (event.type) {
    case 'tool-start':
      return `[tool] ${event.name} ${JSON.stringify(event.input).slice(0, 120)}`;
    case 'tool-end':
      return `[tool] ${event.name} ${event.result.isError ? 'failed' : 'done'} in ${event.durationMs.toFixed(0)} ms`;
    case 'status':
      return `[${event.kind}] ${event.message}`;
    default:
      return undefined;
  }
}

/**
 * `boxagnts run "<prompt>"`: runs the agent once on the workspace, streaming the answer to stdout
 * and a progress line per tool and compaction to stderr; with `json`, one JSON object per event on
 * stdout and the outcome last. Resolves with the exit code from the outcome.
 */
export async function runCommand(
  prompt: string,
  options: RunCommandOptions,
  output: CommandOutput,
  signal?: AbortSignal,
): Promise<number> {
  const agent = await createAgent({
    workspace: options.dir,
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(options.model === undefined ? {} : { model: options.model }),
  });
  try {
    const run = agent.run(prompt, {
      ...(options.session === undefined ? {} : { sessionId: options.session }),
      ...(signal === undefined ? {} : { signal }),
      config: {
        ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
        ...(options.budgetUsd === undefined ? {} : { budgetUsd: options.budgetUsd }),
      },
    });
    let midLine = false;
    for await (const event of run) {
      if (options.json === true) {
        if (event.type !== 'done') output.out(`${JSON.stringify(event)}\n`);
        continue;
      }
      if (event.type === 'text-delta') {
        output.out(event.delta);
        midLine = !event.delta.endsWith('\n');
        continue;
      }
      const line = progress(event);
      if (line === undefined) continue;
      if (midLine) output.out('\n');
      midLine = false;
      output.err(`${line}\n`);
    }
    const outcome = await run.outcome;
    if (options.json === true) {
      const { messages: _messages, ...rest } = outcome;
      output.out(`${JSON.stringify({ type: 'outcome', sessionId: run.sessionId, ...rest, cause: undefined })}\n`);
    } else {
      if (midLine) output.out('\n');
      if (outcome.reason !== 'end_turn') {
        output.err(`run ended: ${outcome.reason}${outcome.reason === 'error' ? ` (${outcome.error})` : ''}\n`);
      }
    }
    return exitCodeFor(outcome.reason);
  } catch (error) {
    output.err(`boxagnts run: ${(error as Error).message}\n`);
    return EXIT_CODES.error;
  } finally {
    await agent.close();
  }
}
