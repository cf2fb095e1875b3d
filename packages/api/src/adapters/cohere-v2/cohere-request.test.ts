import { describe, expect, it } from 'vitest';
import { buildCohereRequest, cohereThinking } from './cohere-request.js';

describe('buildCohereRequest', () => {
  it('sends model, messages and stream for a bare request', () => {
    expect(
      buildCohereRequest({ model: 'command-a-03-2025', messages: [{ role: 'user', content: 'hi' }] }, false),
    ).toEqual({
      model: 'command-a-03-2025',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
    });
  });

  it('maps the sampling settings, leaves metadata out, and merges providerOptions.cohere last', () => {
    const body = buildCohereRequest(
      {
        model: 'm',
        messages: [],
        maxOutputTokens: 10,
        temperature: 0,
        topP: 0.5,
        stopSequences: [],
        metadata: { user: 'u' },
        thinking: { type: 'disabled' },
        providerOptions: { cohere: { k: 40, seed: 7, temperature: 0.9 }, bedrock: { ignored: true } },
      },
      true,
    );
    expect(body).toEqual({
      model: 'm',
      messages: [],
      stream: true,
      max_tokens: 10,
      temperature: 0.9,
      p: 0.5,
      thinking: { type: 'disabled' },
      k: 40,
      seed: 7,
    });
  });
});

describe('cohereThinking', () => {
  it('maps a budget, an effort (no budget) and disabled', () => {
    expect(cohereThinking({ type: 'enabled', budgetTokens: 2000 })).toEqual({ type: 'enabled', token_budget: 2000 });
    expect(cohereThinking({ type: 'effort', effort: 'high' })).toEqual({ type: 'enabled' });
    expect(cohereThinking({ type: 'disabled' })).toEqual({ type: 'disabled' });
    expect(cohereThinking(undefined)).toBeUndefined();
  });
});
