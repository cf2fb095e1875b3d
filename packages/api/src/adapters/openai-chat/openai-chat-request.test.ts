import { describe, expect, it } from 'vitest';
import { buildRequestBody, thinkingFields } from './openai-chat-request.js';
import { DEFAULT_OPENAI_CHAT_COMPAT, type OpenAIChatCompat } from './openai-chat-settings.js';

const compat = (overrides: Partial<OpenAIChatCompat> = {}) => ({ ...DEFAULT_OPENAI_CHAT_COMPAT, ...overrides });
const base = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('buildRequestBody', () => {
  it('maps the common fields', () => {
    const body = buildRequestBody(
      { ...base, maxOutputTokens: 500, temperature: 0.2, topP: 0.9, stopSequences: ['END'], metadata: { user: 'u1' } },
      { compat: compat(), providerId: 'openai', stream: true },
    );
    expect(body).toEqual({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
      max_completion_tokens: 500,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('uses max_tokens, sends metadata and leaves stream_options out when the compat says so', () => {
    const body = buildRequestBody(
      { ...base, maxOutputTokens: 500, metadata: { user: 'u1' } },
      {
        compat: compat({ maxTokensField: 'max_tokens', supportsStreamOptions: false, supportsMetadata: true }),
        providerId: 'x',
        stream: true,
      },
    );
    expect(body).toMatchObject({ max_tokens: 500, metadata: { user: 'u1' }, stream: true });
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body).not.toHaveProperty('stream_options');
  });

  it('sends stream false for createMessage', () => {
    const body = buildRequestBody(base, { compat: compat(), providerId: 'openai', stream: false });
    expect(body.stream).toBe(false);
    expect(body).not.toHaveProperty('stream_options');
  });

  it('merges providerOptions of the protocol, then of the provider, last', () => {
    const body = buildRequestBody(
      {
        ...base,
        temperature: 1,
        providerOptions: { 'openai-chat': { temperature: 0.5, seed: 1 }, deepseek: { seed: 2 }, other: { seed: 3 } },
      },
      { compat: compat(), providerId: 'deepseek', stream: true },
    );
    expect(body).toMatchObject({ temperature: 0.5, seed: 2 });
  });
});

describe('thinkingFields', () => {
  const budget = (budgetTokens: number) => ({ type: 'enabled' as const, budgetTokens });

  it('reasoning-effort: efforts pass through, budgets become efforts, disabled sends nothing', () => {
    expect(thinkingFields({ type: 'effort', effort: 'high' }, 'reasoning-effort')).toEqual({
      reasoning_effort: 'high',
    });
    expect(thinkingFields(budget(4096), 'reasoning-effort')).toEqual({ reasoning_effort: 'low' });
    expect(thinkingFields(budget(16_384), 'reasoning-effort')).toEqual({ reasoning_effort: 'medium' });
    expect(thinkingFields(budget(16_385), 'reasoning-effort')).toEqual({ reasoning_effort: 'high' });
    expect(thinkingFields({ type: 'disabled' }, 'reasoning-effort')).toEqual({});
  });

  it('thinking-type: enabled or disabled', () => {
    expect(thinkingFields(budget(1000), 'thinking-type')).toEqual({ thinking: { type: 'enabled' } });
    expect(thinkingFields({ type: 'effort', effort: 'low' }, 'thinking-type')).toEqual({
      thinking: { type: 'enabled' },
    });
    expect(thinkingFields({ type: 'disabled' }, 'thinking-type')).toEqual({ thinking: { type: 'disabled' } });
  });

  it('enable-thinking: a flag, plus the budget when there is one', () => {
    expect(thinkingFields(budget(8000), 'enable-thinking')).toEqual({ enable_thinking: true, thinking_budget: 8000 });
    expect(thinkingFields({ type: 'effort', effort: 'medium' }, 'enable-thinking')).toEqual({ enable_thinking: true });
    expect(thinkingFields({ type: 'disabled' }, 'enable-thinking')).toEqual({ enable_thinking: false });
  });

  it('openrouter: the reasoning object', () => {
    expect(thinkingFields(budget(3000), 'openrouter')).toEqual({ reasoning: { max_tokens: 3000 } });
    expect(thinkingFields({ type: 'effort', effort: 'low' }, 'openrouter')).toEqual({ reasoning: { effort: 'low' } });
    expect(thinkingFields({ type: 'disabled' }, 'openrouter')).toEqual({ reasoning: { effort: 'none' } });
  });

  it('none, or no config: nothing', () => {
    expect(thinkingFields(budget(3000), 'none')).toEqual({});
    expect(thinkingFields(undefined, 'thinking-type')).toEqual({});
  });
});
