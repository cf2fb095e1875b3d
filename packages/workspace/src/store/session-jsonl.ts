import type { SessionEntry } from '@boxagnts/query';
import { z } from 'zod';
import { describeIssue, sessionEntrySchema, sessionIdSchema } from './entry-schema.js';
import { StoreError } from './store-error.js';
import type { SessionRecord, StoredMessage } from './store-types.js';

/** The `format` value of an export's header line. */
export const SESSION_EXPORT_FORMAT = 'boxagnts.session';
/** The export format's version; imports accept this version only. */
export const SESSION_EXPORT_VERSION = 1;

const headerSchema = z.object({
  type: z.literal('session'),
  format: z.literal(SESSION_EXPORT_FORMAT),
  version: z.literal(SESSION_EXPORT_VERSION),
  session: z.object({
    id: sessionIdSchema,
    title: z.string().max(1000),
    agent: z.string().optional(),
    model: z.string().optional(),
    kind: z.enum(['session', 'fork', 'sub-agent']).optional(),
    parentSessionId: z.string().optional(),
    forkedAtSeq: z.number().int().positive().optional(),
    createdAt: z.number().int().nonnegative(),
    updatedAt: z.number().int().nonnegative(),
  }),
});

const messageLineSchema = sessionEntrySchema.extend({ type: z.literal('message'), seq: z.number().int().positive() });

/** A parsed export: the session's fields and its entries in order. */
export interface ParsedSessionExport {
  session: z.infer<typeof headerSchema>['session'];
  entries: SessionEntry[];
}

/** Writes a session as JSONL: a header line, then one line per message in `seq` order. */
export function formatSessionJsonl(session: SessionRecord, messages: readonly StoredMessage[]): string {
  // A plain session's header stays as before version 4 of the schema: `kind` only when it says something.
  const { messageCount: _count, kind, ...rest } = session;
  const fields = kind === undefined || kind === 'session' ? rest : { ...rest, kind };
  const lines = [
    JSON.stringify({
      type: 'session',
      format: SESSION_EXPORT_FORMAT,
      version: SESSION_EXPORT_VERSION,
      session: fields,
    }),
  ];
  for (const stored of messages) {
    const { sessionId: _sessionId, seq, ...entry } = stored;
    lines.push(JSON.stringify({ type: 'message', seq, ...entry }));
  }
  return `${lines.join('\n')}\n`;
}

function invalidLine(line: number, problem: string, cause?: unknown): StoreError {
  return new StoreError({
    reason: 'invalid-input',
    line,
    message: `Line ${line} of the session import ${problem}; nothing was imported. Fix that line (or export the session again) and retry.`,
    cause,
  });
}

/**
 * Parses and checks a whole export before anything is written: every line must be JSON of the
 * right shape and message lines must be numbered 1, 2, 3, ... Errors name the 1-based line.
 */
export function parseSessionJsonl(jsonl: string): ParsedSessionExport {
  if (typeof jsonl !== 'string') throw invalidLine(1, 'is missing: importJsonl() takes the exported text');
  const lines = jsonl.split('\n').map((line) => line.replace(/\r$/, ''));
  let session: ParsedSessionExport['session'] | undefined;
  const entries: SessionEntry[] = [];
  for (const [index, text] of lines.entries()) {
    const line = index + 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw invalidLine(line, `is not valid JSON (${error instanceof Error ? error.message : String(error)})`, error);
    }
    if (session === undefined) {
      const header = headerSchema.safeParse(value);
      if (!header.success) {
        throw invalidLine(
          line,
          `is not a session header (${describeIssue(header.error)}); an export starts with {"type":"session","format":"${SESSION_EXPORT_FORMAT}","version":${SESSION_EXPORT_VERSION},...}`,
        );
      }
      session = header.data.session;
      continue;
    }
    const parsed = messageLineSchema.safeParse(value);
    if (!parsed.success) throw invalidLine(line, `is not a message line (${describeIssue(parsed.error)})`);
    if (parsed.data.seq !== entries.length + 1) {
      throw invalidLine(
        line,
        `has seq ${parsed.data.seq} where ${entries.length + 1} was expected (messages must be complete and in order)`,
      );
    }
    // Store what the file holds, not zod's copy (which drops unknown fields).
    const { type: _type, seq: _seq, ...entry } = value as Record<string, unknown>;
    entries.push(entry as unknown as SessionEntry);
  }
  if (session === undefined) throw invalidLine(1, 'is missing: the import is empty');
  return { session, entries };
}
