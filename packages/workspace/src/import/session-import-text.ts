import { SESSION_EXPORT_FORMAT, SESSION_EXPORT_VERSION } from '../store/session-jsonl.js';
import type { ConvertedSession } from './convert-session.js';

/** A converted BoxAgnts session as the store's JSONL export, so `importJsonl` keeps its times. */
export function sessionJsonl(session: ConvertedSession): string {
  const header = {
    type: 'session',
    format: SESSION_EXPORT_FORMAT,
    version: SESSION_EXPORT_VERSION,
    session: {
      id: session.id,
      title: session.title,
      ...(session.model === undefined ? {} : { model: session.model }),
      ...(session.parentSessionId === undefined ? {} : { parentSessionId: session.parentSessionId }),
      ...(session.forkedAtSeq === undefined ? {} : { forkedAtSeq: session.forkedAtSeq }),
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
    },
  };
  const lines = [JSON.stringify(header)];
  for (const [index, entry] of session.entries.entries())
    lines.push(JSON.stringify({ type: 'message', seq: index + 1, ...entry }));
  return `${lines.join('\n')}\n`;
}
