import type { QueryEvent } from '@boxagnts/query';

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/**
 * The stored form of a loop event: JSON-safe (errors become `{name, message}`), and the `done`
 * event without the whole history (that lives in the session), keeping reason, turns, usage, text.
 */
export function eventData(event: QueryEvent): Record<string, unknown> {
  if (event.type === 'done') {
    const { messages: _messages, cause: _cause, ...rest } = event.outcome as typeof event.outcome & { cause?: unknown };
    return JSON.parse(JSON.stringify({ type: 'done', outcome: rest }, replacer));
  }
  return JSON.parse(JSON.stringify(event, replacer));
}
