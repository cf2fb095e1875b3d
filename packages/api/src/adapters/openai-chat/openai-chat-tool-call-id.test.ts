import { describe, expect, it } from 'vitest';
import { MISTRAL_TOOL_CALL_ID_RULES } from './openai-chat-settings.js';
import { toChatToolCallId } from './openai-chat-tool-call-id.js';

describe('toChatToolCallId', () => {
  it('keeps ids unchanged without rules', () => {
    expect(toChatToolCallId('call_abc-1', undefined)).toBe('call_abc-1');
  });

  it('keeps a valid Mistral id', () => {
    expect(toChatToolCallId('gSIMJiOkT', MISTRAL_TOOL_CALL_ID_RULES)).toBe('gSIMJiOkT');
  });

  it.each(['call_0fypS1hVX', 'toolu_01A09q90qw90lq917835lq9', 'abc', 'call_00_9V0vrf86Pc9aelHCJMZqnJBo'])(
    'rewrites %s to exactly 9 alphanumeric characters, the same every time',
    (id) => {
      const rewritten = toChatToolCallId(id, MISTRAL_TOOL_CALL_ID_RULES);
      expect(rewritten).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(toChatToolCallId(id, MISTRAL_TOOL_CALL_ID_RULES)).toBe(rewritten);
    },
  );

  it('maps different ids to different ids', () => {
    const first = toChatToolCallId('call_1', MISTRAL_TOOL_CALL_ID_RULES);
    const second = toChatToolCallId('call_2', MISTRAL_TOOL_CALL_ID_RULES);
    expect(first).not.toBe(second);
  });

  it('never leaves a character the rules forbid (the shared helper joins with _)', () => {
    const rules = { maxLength: 40, allowed: /[a-zA-Z0-9]/ };
    const rewritten = toChatToolCallId(`call_${'x'.repeat(60)}`, rules);
    expect(rewritten).toMatch(/^[a-zA-Z0-9]{1,40}$/);
  });

  it('keeps the shared helper result when it fits (length limit only)', () => {
    expect(toChatToolCallId('a'.repeat(50), { maxLength: 40 })).toHaveLength(40);
  });
});
