import { randomUUID } from 'node:crypto';
import type { UserContentBlock } from '@boxagnts/api';
import { compactHistory, type QueryEvent } from '@boxagnts/query';
import type { Workspace } from '@boxagnts/workspace';
import { type Agent, createAgent } from '../agent/create-agent.js';
import { memoryBlock, runLocalCommand } from './chat-local-blocks.js';

/** Options of {@link createChatSession}. */
export interface ChatSessionOptions {
  workspace: Workspace;
  agent?: string;
  model?: string;
  /** The session to continue; default a new one. */
  sessionId?: string;
  /** Where `!command` runs; default the process's working folder (the user's terminal). */
  cwd?: string;
  /** Everything the chat prints. */
  write: (text: string) => void;
}

/** One interactive chat over {@link createAgent}: feed it each line the user types. */
export interface ChatSession {
  readonly sessionId: string;
  /** Handles one typed line; resolves false once the user asked to leave (`/exit`). */
  handle(line: string, signal?: AbortSignal): Promise<boolean>;
  close(): Promise<void>;
}

/** The help line the chat prints on start and for an unknown slash command. */
export const CHAT_HELP =
  'commands: /agent <name>, /model <provider/model>, /compact, /cost, /fork, /exit; !command runs it here; #note is remembered';

const summary = (value: unknown, limit: number) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit)}...` : text;
};

function toolCard(event: QueryEvent): string | undefined {
  if (event.type === 'tool-start') return `\n┌ tool ${event.name} ${summary(event.input, 160)}\n`;
  if (event.type === 'tool-end') {
    const content = event.result.content;
    const text = Array.isArray(content)
      ? content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ')
      : String(content);
    return `└ ${event.result.isError ? 'failed' : 'done'}: ${summary(text.replace(/\s+/g, ' ').trim(), 160)}\n`;
  }
  if (event.type === 'status') return `[${event.kind}] ${event.message}\n`;
  return undefined;
}

/**
 * Starts an interactive chat on a workspace: prompts run the agent with streamed answers and a card
 * per tool call; `/agent`, `/model`, `/compact`, `/cost`, `/fork` and `/exit` steer it; `!command`
 * runs a command on the host and stores its output as a `user_local_command_output` block; `#note`
 * stores a `user_memory_input` block. Both blocks reach the model with the next prompt.
 */
export async function createChatSession(options: ChatSessionOptions): Promise<ChatSession> {
  const { workspace, write } = options;
  let agentName = options.agent;
  let model = options.model;
  let sessionId = options.sessionId ?? randomUUID();
  const build = () =>
    createAgent({
      workspace,
      ...(agentName === undefined ? {} : { agent: agentName }),
      ...(model === undefined ? {} : { model }),
    });
  let agent: Agent = await build();
  const sessions = workspace.store.sessions;

  async function ensureSession(): Promise<void> {
    if ((await sessions.get(sessionId)) === undefined) {
      await sessions.create({ id: sessionId, agent: agent.definition.name, model: agent.modelReference });
    }
  }
  async function storeUserBlock(block: UserContentBlock): Promise<void> {
    await ensureSession();
    await sessions.append(sessionId, [{ message: { role: 'user', content: [block] } }]);
  }
  async function replace(next: { agent?: string; model?: string }): Promise<void> {
    const previous = { agentName, model };
    if (next.agent !== undefined) agentName = next.agent;
    if (next.model !== undefined) model = next.model;
    try {
      const fresh = await build();
      await agent.close();
      agent = fresh;
      write(`agent ${agent.definition.name} on ${agent.modelReference}\n`);
    } catch (error) {
      agentName = previous.agentName;
      model = previous.model;
      write(`cannot switch: ${(error as Error).message}\n`);
    }
  }
  async function prompt(text: string, signal: AbortSignal | undefined): Promise<void> {
    const run = agent.run(text, { sessionId, ...(signal === undefined ? {} : { signal }) });
    let midLine = false;
    for await (const event of run) {
      if (event.type === 'text-delta') {
        write(event.delta);
        midLine = !event.delta.endsWith('\n');
        continue;
      }
      const card = toolCard(event);
      if (card === undefined) continue;
      write(midLine ? `\n${card}` : card);
      midLine = false;
    }
    const outcome = await run.outcome;
    if (midLine) write('\n');
    if (outcome.reason !== 'end_turn') {
      write(`[run ended: ${outcome.reason}${outcome.reason === 'error' ? ` (${String(outcome.error)})` : ''}]\n`);
    }
  }
  async function compact(signal: AbortSignal | undefined): Promise<void> {
    const history = await sessions.resume(sessionId).catch(() => []);
    if (history.length < 2) {
      write('nothing to compact yet\n');
      return;
    }
    const steps = compactHistory({
      messages: history,
      provider: agent.provider,
      model: agent.model,
      // The user asked for it: keep only the last turn verbatim and summarise everything before it.
      config: { keepRecentTurns: 1 },
      signal: signal ?? new AbortController().signal,
      targetTokens: 0,
      tokens: Math.ceil(JSON.stringify(history).length / 4),
      force: true,
      agent: agent.definition,
    });
    let next = await steps.next();
    while (next.done !== true) {
      if (next.value.type === 'status') write(`[${next.value.kind}] ${next.value.message}\n`);
      next = await steps.next();
    }
    const result = next.value;
    for (const call of result.calls ?? []) {
      await workspace.store.usage.record({
        sessionId,
        provider: agent.modelReference.split('/')[0] ?? '',
        model: call.model,
        agent: agent.definition.name,
        purpose: 'compaction',
        usage: call.usage,
      });
    }
    if (!result.changed || result.summaryMessage === undefined) {
      write('the stored history is unchanged: there were no earlier turns to summarise\n');
      return;
    }
    await sessions.append(sessionId, [
      { message: result.summaryMessage, compaction: { keptMessages: result.keptMessages ?? 0 } },
    ]);
    write(`compacted ${history.length} messages to ${result.messages.length}\n`);
  }
  async function cost(): Promise<void> {
    const rows = await workspace.store.usage.report('session');
    const row = rows.find((entry) => entry.key === sessionId);
    if (row === undefined) {
      write('cost: no model calls in this session yet\n');
      return;
    }
    write(
      `cost: $${row.costUsd.toFixed(4)} over ${row.calls} calls (${row.inputTokens} input, ${row.outputTokens} output tokens)\n`,
    );
  }
  async function fork(): Promise<void> {
    const record = await sessions.get(sessionId);
    if (record === undefined || record.messageCount === 0) {
      write('nothing to fork yet\n');
      return;
    }
    // Sequence numbers count the stored messages from 1, so the last one is the message count.
    const forked = await sessions.fork(sessionId, record.messageCount);
    write(`forked ${sessionId} into ${forked.id}; now in ${forked.id}\n`);
    sessionId = forked.id;
  }

  return {
    get sessionId() {
      return sessionId;
    },
    async handle(raw, signal) {
      const line = raw.trim();
      if (line === '') return true;
      try {
        if (line.startsWith('!')) {
          const command = line.slice(1).trim();
          if (command === '') write('type a command after "!"\n');
          else {
            const block = await runLocalCommand(command, options.cwd ?? process.cwd(), signal);
            write(block.output.endsWith('\n') || block.output === '' ? block.output : `${block.output}\n`);
            await storeUserBlock(block);
          }
          return true;
        }
        if (line.startsWith('#')) {
          const block = memoryBlock(line);
          if (block === undefined) write('type a note after "#"\n');
          else {
            await storeUserBlock(block);
            write(`remembered ${block.key}: ${block.value}\n`);
          }
          return true;
        }
        if (line.startsWith('/')) {
          const [name = '', ...rest] = line.slice(1).split(/\s+/);
          const argument = rest.join(' ').trim();
          switch (name) {
            case 'exit':
            case 'quit':
              return false;
            case 'agent':
              if (argument === '') write(`agent ${agent.definition.name}; use /agent <name>\n`);
              else await replace({ agent: argument });
              return true;
            case 'model':
              if (argument === '') write(`model ${agent.modelReference}; use /model <provider/model>\n`);
              else await replace({ model: argument });
              return true;
            case 'compact':
              await compact(signal);
              return true;
            case 'cost':
              await cost();
              return true;
            case 'fork':
              await fork();
              return true;
            default:
              write(`unknown command /${name}; ${CHAT_HELP}\n`);
              return true;
          }
        }
        await prompt(line, signal);
      } catch (error) {
        write(`error: ${(error as Error).message}\n`);
      }
      return true;
    },
    async close() {
      await agent.close();
    },
  };
}
