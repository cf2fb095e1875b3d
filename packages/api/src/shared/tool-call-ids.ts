import { createHash } from 'node:crypto';

/** What a vendor accepts as a tool-call id. */
export interface ToolCallIdRules {
  /** Longest id accepted (e.g. 40 for OpenAI-compatible servers that check, 9 for Mistral). */
  maxLength?: number;
  /** Characters allowed, as a single-character class, e.g. `/[a-zA-Z0-9_-]/`. */
  allowed?: RegExp;
}

/** Anthropic: `^[a-zA-Z0-9_-]+$`. @see https://docs.anthropic.com/en/api/messages */
export const ANTHROPIC_TOOL_CALL_ID_RULES: ToolCallIdRules = { allowed: /[a-zA-Z0-9_-]/ };

/**
 * Make a tool-call id valid for a vendor, deterministically: a valid id is kept; otherwise invalid
 * characters become `_` and, when that changed it or it is too long, a short hash of the original
 * is appended so two different ids never map to the same one. Because the mapping is a pure
 * function, a `tool_use` and its `tool_result` (and every later turn) always agree.
 */
export function toVendorToolCallId(id: string, rules: ToolCallIdRules): string {
  const allowed = rules.allowed;
  const maxLength = rules.maxLength ?? Number.POSITIVE_INFINITY;
  const isAllowed = (character: string) =>
    allowed ? new RegExp(`^${allowed.source}$`, allowed.flags).test(character) : true;
  const characters = [...id];
  const valid = id.length > 0 && id.length <= maxLength && characters.every(isAllowed);
  if (valid) return id;
  const hash = createHash('sha256')
    .update(id)
    .digest('base64url')
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 8);
  const cleaned = characters.map((character) => (isAllowed(character) ? character : '_')).join('');
  if (maxLength <= hash.length) return hash.slice(0, maxLength);
  const room = Number.isFinite(maxLength) ? maxLength - hash.length - 1 : cleaned.length;
  const prefix = cleaned.slice(0, Math.max(0, room));
  return prefix ? `${prefix}_${hash}` : hash;
}
