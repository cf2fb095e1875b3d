import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../spec/request.js';
import {
  buildOpenAIResponsesRequest,
  isOpenAIReasoningModel,
  mapThinkingToEffort,
} from './openai-responses-request.js';

const base: LlmRequest = { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] };
const options = { store: false, providerId: 'openai-responses' };

describe('mapThinkingToEffort', () => {
  it.each([
    [undefined, undefined],
    [{ type: 'disabled' }, undefined],
    [{ type: 'effort', effort: 'low' }, 'low'],
    [{ type: 'enabled', budgetTokens: 1_024 }, 'low'],
    [{ type: 'enabled', budgetTokens: 8_000 }, 'medium'],
    [{ type: 'enabled', budgetTokens: 32_000 }, 'high'],
  ] as const)('%j → %s', (thinking, effort) => {
    expect(mapThinkingToEffort(thinking)).toBe(effort);
  });
});

describe('isOpenAIReasoningModel', () => {
  it.each([
    ['o3', true],
    ['o4-mini', true],
    ['gpt-5', true],
    ['gpt-5.1-codex-max', true],
    ['openai/gpt-5-mini', true],
    ['gpt-5-chat-latest', false],
    ['gpt-4o', false],
    ['gpt-4.1-mini', false],
  ])('%s → %s', (model, expected) => {
    expect(isOpenAIReasoningModel(model)).toBe(expected);
  });
});

describe('buildOpenAIResponsesRequest', () => {
  it('sends only what was asked of a plain model, without stop sequences', () => {
    expect(
      buildOpenAIResponsesRequest({ ...base, stopSequences: ['END'], temperature: 0.2, topP: 0.9 }, options),
    ).toEqual({
      model: 'gpt-4.1',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      temperature: 0.2,
      top_p: 0.9,
      store: false,
    });
  });

  it('asks a reasoning model for encrypted reasoning when stateless, and for a summary when configured', () => {
    const body = buildOpenAIResponsesRequest({ ...base, model: 'o3' }, { ...options, reasoningSummary: 'concise' });
    expect(body).toMatchObject({
      reasoning: { summary: 'concise' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    const stored = buildOpenAIResponsesRequest({ ...base, model: 'o3' }, { ...options, store: true });
    expect(stored).not.toHaveProperty('include');
    expect(stored).toMatchObject({ store: true });
  });

  it('turns thinking on for any model by effort, and does not ask a plain model for a summary without it', () => {
    expect(
      buildOpenAIResponsesRequest({ ...base, thinking: { type: 'enabled', budgetTokens: 10_000 } }, options),
    ).toMatchObject({ reasoning: { effort: 'medium' }, include: ['reasoning.encrypted_content'] });
    expect(buildOpenAIResponsesRequest(base, { ...options, reasoningSummary: 'auto' })).not.toHaveProperty('reasoning');
  });

  it('joins a system prompt with a cache boundary into instructions and passes metadata', () => {
    const body = buildOpenAIResponsesRequest(
      {
        ...base,
        system: [{ type: 'text', text: 'Stable.' }, { type: 'cache-boundary' }, { type: 'text', text: 'Dynamic.' }],
        metadata: { user: 'u1' },
        maxOutputTokens: 64,
      },
      options,
    );
    expect(body).toMatchObject({
      instructions: 'Stable.\n\nDynamic.',
      metadata: { user: 'u1' },
      max_output_tokens: 64,
    });
  });

  it('merges the protocol and provider entries of providerOptions last', () => {
    const body = buildOpenAIResponsesRequest(
      {
        ...base,
        providerOptions: {
          'openai-responses': { parallel_tool_calls: false, store: true },
          azure: { service_tier: 'flex' },
          anthropic: { top_k: 3 },
        },
      },
      { ...options, providerId: 'azure' },
    );
    expect(body).toMatchObject({ parallel_tool_calls: false, store: true, service_tier: 'flex' });
    expect(body).not.toHaveProperty('top_k');
  });
});
