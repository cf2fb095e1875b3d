import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Message } from '@boxagnts/api';
import type { SessionRecord } from '@boxagnts/workspace';
import { type Command, InvalidArgumentError } from 'commander';
import { CliError } from './cli-error.js';
import { type CliOutput, type CommonOptions, printJson, withWorkspace } from './cli-workspace.js';
import { printable } from './terminal-text.js';

/** The largest file `boxagnts sessions import` reads (64 MiB); a larger one is refused before reading. */
export const SESSION_IMPORT_MAX_BYTES = 64 * 1024 * 1024;

function sequenceNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1) {
    throw new InvalidArgumentError('must be a message number (1, 2, ...): see "boxagnts sessions show <id>".');
  }
  return number;
}

function listLimit(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < 1 || number > 10_000) {
    throw new InvalidArgumentError('must be a whole number from 1 to 10000.');
  }
  return number;
}

function sessionLine(session: SessionRecord): string {
  const when = new Date(session.updatedAt).toISOString();
  const kind = session.kind === 'session' ? '' : ` [${session.kind}]`;
  return `${printable(session.id)}  ${when}  ${session.messageCount} messages  ${session.title === '' ? '(untitled)' : printable(session.title)}${kind}\n`;
}

/** A one-line text of a message for `sessions show`: its text, and tool calls and results by name. */
export function messageSummary(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const parts: string[] = [];
  for (const block of message.content as readonly { type: string; text?: unknown; name?: unknown }[]) {
    if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (block.type === 'tool_use') {
      parts.push(`[tool ${String(block.name ?? '')}]`);
    } else parts.push(`[${block.type}]`);
  }
  return parts.join(' ');
}

async function requireSession(
  sessions: { get(id: string): Promise<SessionRecord | undefined> },
  id: string,
): Promise<SessionRecord> {
  const session = await sessions.get(id);
  if (session === undefined) {
    throw new CliError(`there is no session ${JSON.stringify(id)}; run "boxagnts sessions list" to find its id.`);
  }
  return session;
}

/** Adds `boxagnts sessions [list|show|rename|fork|delete|search|export|import]` to the program. */
export function registerSessionsCommand(program: Command, output: CliOutput): void {
  const sessions = program
    .command('sessions')
    .description('list, show, rename, fork, delete, search, export and import the sessions of a workspace');
  const common = (command: Command) =>
    command.option('-d, --dir <dir>', 'the workspace folder', '.').option('--json', 'print JSON for scripts');

  common(
    sessions
      .command('list', { isDefault: true })
      .description('the sessions, most recently updated first')
      .option('-n, --limit <n>', 'at most this many (default 50)', listLimit),
  ).action((options: CommonOptions & { limit?: number }) =>
    withWorkspace(options.dir, async (workspace) => {
      const list = await workspace.store.sessions.list({ limit: options.limit ?? 50 });
      if (options.json === true) return printJson(output, list);
      if (list.length === 0) output.out('no sessions yet\n');
      for (const session of list) output.out(sessionLine(session));
    }),
  );

  common(sessions.command('show').argument('<id>').description('a session and its messages')).action(
    (id: string, options: CommonOptions) =>
      withWorkspace(options.dir, async (workspace) => {
        const session = await requireSession(workspace.store.sessions, id);
        const entries = await workspace.store.sessions.load(id);
        if (options.json === true) return printJson(output, { session, messages: entries });
        output.out(sessionLine(session));
        entries.forEach((entry, index) => {
          output.out(`  ${index + 1}. ${entry.message.role}: ${printable(messageSummary(entry.message))}\n`);
        });
      }),
  );

  common(
    sessions.command('rename').argument('<id>').argument('<title>').description('give a session a new title'),
  ).action((id: string, title: string, options: CommonOptions) =>
    withWorkspace(options.dir, async (workspace) => {
      await requireSession(workspace.store.sessions, id);
      await workspace.store.sessions.rename(id, title);
      const session = await requireSession(workspace.store.sessions, id);
      if (options.json === true) return printJson(output, session);
      output.out(`renamed ${printable(id)}: ${printable(session.title)}\n`);
    }),
  );

  common(
    sessions
      .command('fork')
      .argument('<id>')
      .argument('<seq>', 'the last message to keep (its number in "sessions show")', sequenceNumber)
      .option('-t, --title <title>', 'the title of the fork')
      .description('a new session holding the messages up to and including <seq>'),
  ).action((id: string, seq: number, options: CommonOptions & { title?: string }) =>
    withWorkspace(options.dir, async (workspace) => {
      const session = await requireSession(workspace.store.sessions, id);
      if (seq > session.messageCount) {
        throw new CliError(
          `session ${id} has ${session.messageCount} messages; give a <seq> from 1 to ${session.messageCount}.`,
        );
      }
      const fork = await workspace.store.sessions.fork(id, seq, {
        ...(options.title === undefined ? {} : { title: options.title }),
      });
      if (options.json === true) return printJson(output, fork);
      output.out(`${printable(fork.id)}\n`);
    }),
  );

  common(sessions.command('delete').argument('<id>').description('delete a session and its messages')).action(
    (id: string, options: CommonOptions) =>
      withWorkspace(options.dir, async (workspace) => {
        await requireSession(workspace.store.sessions, id);
        await workspace.store.sessions.delete(id);
        if (options.json === true) return printJson(output, { deleted: id });
        output.out(`deleted ${printable(id)}\n`);
      }),
  );

  common(
    sessions
      .command('search')
      .argument('<query>')
      .option('-n, --limit <n>', 'at most this many hits (default 20)', listLimit)
      .description('search the text of every message'),
  ).action((query: string, options: CommonOptions & { limit?: number }) =>
    withWorkspace(options.dir, async (workspace) => {
      const hits = await workspace.store.sessions.search(query, { limit: options.limit ?? 20 });
      if (options.json === true) return printJson(output, hits);
      if (hits.length === 0) output.out('no matches\n');
      for (const hit of hits)
        output.out(`${printable(hit.sessionId)} #${hit.seq} ${hit.role}: ${printable(hit.snippet)}\n`);
    }),
  );

  common(
    sessions.command('export').argument('<id>').description('print a session as JSONL (header, then messages)'),
  ).action((id: string, options: CommonOptions) =>
    withWorkspace(options.dir, async (workspace) => {
      await requireSession(workspace.store.sessions, id);
      const jsonl = await workspace.store.sessions.exportJsonl(id);
      output.out(jsonl.endsWith('\n') ? jsonl : `${jsonl}\n`);
    }),
  );

  common(
    sessions
      .command('import')
      .argument('<file>', 'a JSONL file written by "sessions export"')
      .option('--id <id>', 'the id of the new session (default: a new one)')
      .description('import a session from JSONL'),
  ).action((file: string, options: CommonOptions & { id?: string }) =>
    withWorkspace(options.dir, async (workspace) => {
      const path = resolve(file);
      const found = await stat(path).catch(() => undefined);
      if (found === undefined || !found.isFile()) throw new CliError(`cannot read ${path}: not a file.`);
      if (found.size > SESSION_IMPORT_MAX_BYTES) {
        throw new CliError(`${path} is ${found.size} bytes; a session import is at most ${SESSION_IMPORT_MAX_BYTES}.`);
      }
      const session = await workspace.store.sessions.importJsonl(await readFile(path, 'utf8'), {
        ...(options.id === undefined ? {} : { id: options.id }),
      });
      if (options.json === true) return printJson(output, session);
      output.out(`${printable(session.id)}\n`);
    }),
  );
}
