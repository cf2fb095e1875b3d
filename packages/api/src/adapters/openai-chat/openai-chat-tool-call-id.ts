import { createHash } from 'node:crypto';
import { toVendorToolCallId } from '../../shared/tool-call-ids.js';
import type { OpenAIChatToolCallIdRules } from './openai-chat-settings.js';

/**
 * The id to send for a tool call, valid under `rules` (undefined: unchanged). Applied to every
 * `tool_calls[].id` and every `tool_call_id`, and deterministic, so a call and its result always
 * agree. The shared `toVendorToolCallId` does the length and character rules; when its result still
 * breaks them (it joins with `_` even where `_` is not allowed, and cannot meet an exact length such
 * as Mistral's 9) the id is a hash of the original made of allowed characters only.
 */
export function toChatToolCallId(id: string, rules: OpenAIChatToolCallIdRules | undefined): string {
  if (rules === undefined) return id;
  const candidate = toVendorToolCallId(id, rules);
  if (fits(candidate, rules)) return candidate;
  const length = rules.exactLength ?? Math.min(rules.maxLength ?? 16, 16);
  let hashed = '';
  for (let round = 0; hashed.length < length && round < 8; round += 1) {
    const digest = createHash('sha256').update(`${round}:${id}`).digest('base64');
    hashed += [...digest].filter((character) => isAllowed(character, rules.allowed)).join('');
  }
  return hashed.slice(0, length);
}

function fits(id: string, rules: OpenAIChatToolCallIdRules): boolean {
  if (id.length === 0) return false;
  if (rules.exactLength !== undefined && id.length !== rules.exactLength) return false;
  if (rules.maxLength !== undefined && id.length > rules.maxLength) return false;
  return [...id].every((character) => isAllowed(character, rules.allowed));
}

function isAllowed(character: string, allowed: RegExp | undefined): boolean {
  return allowed === undefined || new RegExp(`^${allowed.source}$`, allowed.flags.replace('g', '')).test(character);
}
