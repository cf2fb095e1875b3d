import type { PermissionRequest } from '@boxagnts/tools-manager';

const MAX_STRING = 2_000;
const MAX_ITEMS = 50;
const MAX_DEPTH = 5;

/** A copy of a tool input small enough to store and show: long strings, lists and deep nesting are cut with `…`. */
export function boundedInput(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => boundedInput(item, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more`);
    return items;
  }
  const entries = Object.entries(value);
  const kept = entries.slice(0, MAX_ITEMS).map(([key, item]) => [key, boundedInput(item, depth + 1)] as const);
  if (entries.length > MAX_ITEMS) kept.push(['…', `${entries.length - MAX_ITEMS} more keys`]);
  return Object.fromEntries(kept);
}

/** Input fields that say what a call acts on, in the order they are looked for. */
const SUBJECT_FIELDS = ['command', 'file_path', 'path', 'url', 'pattern', 'query'] as const;

/** The sentence a permission question shows: what the tool wants to do, and why approval is needed. */
export function permissionSentence(request: PermissionRequest): string {
  const field = SUBJECT_FIELDS.find((name) => typeof request.input[name] === 'string');
  const subject = field === undefined ? '' : String(request.input[field]);
  const shown = subject.length > 300 ? `${subject.slice(0, 300)}…` : subject;
  const what =
    shown === '' ? `use the tool "${request.tool.name}"` : `use "${request.tool.name}" on ${field}: ${shown}`;
  return `The agent wants to ${what}. ${request.reason}`;
}
