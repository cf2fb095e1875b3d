import { describe, expect, it } from 'vitest';
import { DEFAULT_OPENAI_CHAT_COMPAT, resolveCompat } from './openai-chat-settings.js';

describe('resolveCompat', () => {
  it("is OpenAI's behaviour when nothing is given", () => {
    expect(resolveCompat(undefined)).toEqual(DEFAULT_OPENAI_CHAT_COMPAT);
    expect(resolveCompat(undefined).maxTokensField).toBe('max_completion_tokens');
  });

  it('overrides only the fields given, ignoring undefined ones', () => {
    const compat = resolveCompat({ maxTokensField: 'max_tokens', echoReasoningContent: true, thinking: undefined });
    expect(compat).toEqual({ ...DEFAULT_OPENAI_CHAT_COMPAT, maxTokensField: 'max_tokens', echoReasoningContent: true });
  });

  it('does not share the defaults object', () => {
    const compat = resolveCompat({});
    expect(compat).not.toBe(DEFAULT_OPENAI_CHAT_COMPAT);
  });
});
