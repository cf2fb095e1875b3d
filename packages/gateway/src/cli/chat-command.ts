import { createInterface } from 'node:readline';
import { openWorkspace } from '@boxagnts/workspace';
import { CHAT_HELP, createChatSession } from './chat-session.js';
import type { CommandOutput } from './run-command.js';

/** Options of `boxagnts chat`. */
export interface ChatCommandOptions {
  dir: string;
  agent?: string;
  model?: string;
  session?: string;
}

/**
 * `boxagnts chat`: reads lines from `input` and hands each to a {@link createChatSession} until
 * `/exit` or the end of input; Ctrl-C cancels the running answer, a second Ctrl-C at the prompt leaves.
 */
export async function chatCommand(
  options: ChatCommandOptions,
  output: CommandOutput,
  input: NodeJS.ReadableStream = process.stdin,
): Promise<number> {
  const workspace = await openWorkspace(options.dir);
  const chat = await createChatSession({
    workspace,
    write: output.out,
    ...(options.agent === undefined ? {} : { agent: options.agent }),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.session === undefined ? {} : { sessionId: options.session }),
  }).catch(async (error: unknown) => {
    await workspace.close();
    throw error;
  });
  const lines = createInterface({ input, terminal: false });
  let running: AbortController | undefined;
  const onInterrupt = () => {
    if (running !== undefined) running.abort();
    else lines.close();
  };
  process.on('SIGINT', onInterrupt);
  output.out(`session ${chat.sessionId}\n${CHAT_HELP}\n> `);
  try {
    for await (const line of lines) {
      running = new AbortController();
      const keepGoing = await chat.handle(line, running.signal);
      running = undefined;
      if (!keepGoing) break;
      output.out('> ');
    }
  } finally {
    process.off('SIGINT', onInterrupt);
    lines.close();
    await chat.close();
    await workspace.close();
  }
  output.out('\nbye\n');
  return 0;
}
