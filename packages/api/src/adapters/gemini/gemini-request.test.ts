import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../spec/request.js';
import { buildGeminiRequestBody, geminiModelGeneration, toGeminiThinkingConfig } from './gemini-request.js';

const base: LlmRequest = { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }] };

describe('geminiModelGeneration', () => {
  it.each([
    ['gemini-2.5-flash', 2],
    ['models/gemini-3-pro-preview', 3],
    ['gemini-3.1-flash-lite', 3],
    ['gemini-flash-latest', undefined],
    ['tunedModels/abc', undefined],
  ])('%s is %s', (model, generation) => {
    expect(geminiModelGeneration(model)).toBe(generation);
  });
});

describe('toGeminiThinkingConfig', () => {
  it.each([
    [{ type: 'enabled', budgetTokens: 4096 }, 'gemini-2.5-pro', { thinkingBudget: 4096, includeThoughts: true }],
    [{ type: 'enabled', budgetTokens: 4096 }, 'gemini-3-pro-preview', { thinkingBudget: 4096, includeThoughts: true }],
    [{ type: 'effort', effort: 'low' }, 'gemini-3-flash-preview', { thinkingLevel: 'low', includeThoughts: true }],
    [{ type: 'effort', effort: 'medium' }, 'gemini-2.5-flash', { thinkingBudget: 8192, includeThoughts: true }],
    [{ type: 'effort', effort: 'high' }, 'gemini-flash-latest', { thinkingLevel: 'high', includeThoughts: true }],
    [{ type: 'disabled' }, 'gemini-2.5-flash', { thinkingBudget: 0 }],
    [{ type: 'disabled' }, 'gemini-3-flash-preview', { thinkingLevel: 'minimal' }],
    [{ type: 'disabled' }, 'gemini-3-pro-preview', { thinkingLevel: 'low' }],
  ] as const)('%j on %s is %j', (thinking, model, config) => {
    expect(toGeminiThinkingConfig(thinking, model)).toEqual(config);
  });

  it('sends nothing when the request does not say', () => {
    expect(toGeminiThinkingConfig(undefined, 'gemini-3-pro-preview')).toBeUndefined();
  });
});

describe('buildGeminiRequestBody', () => {
  it('fills generationConfig from the request', () => {
    const body = buildGeminiRequestBody(
      {
        ...base,
        maxOutputTokens: 512,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        thinking: { type: 'enabled', budgetTokens: 1024 },
      },
      { providerId: 'gemini', vertex: false },
    );
    expect(body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: {
        maxOutputTokens: 512,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      },
    });
  });

  it('sends metadata as labels on Vertex only', () => {
    const request = { ...base, metadata: { team: 'search' } };
    expect(buildGeminiRequestBody(request, { providerId: 'gemini', vertex: true }).labels).toEqual({ team: 'search' });
    expect(buildGeminiRequestBody(request, { providerId: 'gemini', vertex: false }).labels).toBeUndefined();
  });

  it('merges providerOptions.gemini and the provider id entry one level deep', () => {
    const body = buildGeminiRequestBody(
      {
        ...base,
        temperature: 0.5,
        providerOptions: {
          gemini: {
            generationConfig: { topK: 40 },
            safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
          },
          'my-gemini': { generationConfig: { temperature: 0.1 } },
          openai: { ignored: true },
        },
      },
      { providerId: 'my-gemini', vertex: false },
    );
    expect(body.generationConfig).toEqual({ temperature: 0.1, topK: 40 });
    expect(body.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
    expect(body.ignored).toBeUndefined();
  });
});
