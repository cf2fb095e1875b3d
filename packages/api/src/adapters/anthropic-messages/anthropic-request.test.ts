import { describe, expect, it } from 'vitest';
import type { LlmRequest, SystemPromptPart } from '../../spec/request.js';
import { buildAnthropicRequestBody, DEFAULT_ANTHROPIC_MAX_TOKENS } from './anthropic-request.js';

const base: LlmRequest = { model: 'claude-x', messages: [{ role: 'user', content: 'Hi' }] };
const options = { providerId: 'anthropic' };
const tool = { name: 't', description: 'd', inputSchema: { type: 'object' } };

describe('buildAnthropicRequestBody', () => {
  it('sends the model, a default max_tokens and the messages; nothing unasked', () => {
    expect(buildAnthropicRequestBody(base, options)).toEqual({
      model: 'claude-x',
      max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(buildAnthropicRequestBody(base, { ...options, defaultMaxOutputTokens: 100 }).max_tokens).toBe(100);
  });

  it('maps sampling fields, stop sequences and metadata.user_id', () => {
    const body = buildAnthropicRequestBody(
      {
        ...base,
        maxOutputTokens: 50,
        temperature: 0.2,
        topP: 0.9,
        stopSequences: ['END'],
        metadata: { userId: 'u-1', team: 'x' },
      },
      options,
    );
    expect(body).toMatchObject({
      max_tokens: 50,
      temperature: 0.2,
      top_p: 0.9,
      stop_sequences: ['END'],
      metadata: { user_id: 'u-1' },
    });
    expect(body.metadata).toEqual({ user_id: 'u-1' });
  });

  it('sends a one-part system prompt as a string and appends hoisted system messages', () => {
    expect(buildAnthropicRequestBody({ ...base, system: 'Be brief.' }, options).system).toBe('Be brief.');
    const body = buildAnthropicRequestBody(
      { ...base, system: 'Be brief.', messages: [{ role: 'system', content: 'Use metric units.' }, ...base.messages] },
      options,
    );
    expect(body.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Use metric units.' },
    ]);
  });

  it('marks the segment before each cache boundary and the last tool, at most four breakpoints', () => {
    const system: SystemPromptPart[] = [];
    for (let index = 0; index < 5; index += 1)
      system.push({ type: 'text', text: `part ${index}` }, { type: 'cache-boundary' });
    system.push({ type: 'text', text: 'tail' });
    const marked = (body: ReturnType<typeof buildAnthropicRequestBody>) =>
      (body.system as Array<{ text: string; cache_control?: unknown }>)
        .filter((block) => block.cache_control)
        .map((block) => block.text);
    const withTools = buildAnthropicRequestBody({ ...base, system, tools: [tool] }, options);
    expect(marked(withTools)).toEqual(['part 2', 'part 3', 'part 4']);
    expect(withTools.tools?.[0]).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(marked(buildAnthropicRequestBody({ ...base, system }, options))).toEqual([
      'part 1',
      'part 2',
      'part 3',
      'part 4',
    ]);
  });

  it('adds no cache markers without a cache boundary', () => {
    const body = buildAnthropicRequestBody(
      {
        ...base,
        system: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        tools: [tool],
      },
      options,
    );
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it('maps a thinking budget, raising max_tokens above it when needed', () => {
    expect(
      buildAnthropicRequestBody(
        { ...base, maxOutputTokens: 16_000, thinking: { type: 'enabled', budgetTokens: 4_000 } },
        options,
      ),
    ).toMatchObject({
      max_tokens: 16_000,
      thinking: { type: 'enabled', budget_tokens: 4_000 },
    });
    expect(
      buildAnthropicRequestBody(
        { ...base, maxOutputTokens: 1_000, thinking: { type: 'enabled', budgetTokens: 4_000 } },
        options,
      ).max_tokens,
    ).toBe(5_000);
  });

  it('maps an effort level to adaptive thinking with output_config.effort, and disabled to disabled', () => {
    const effort = buildAnthropicRequestBody({ ...base, thinking: { type: 'effort', effort: 'low' } }, options);
    expect([effort.thinking, effort.output_config]).toEqual([{ type: 'adaptive' }, { effort: 'low' }]);
    expect(buildAnthropicRequestBody({ ...base, thinking: { type: 'disabled' } }, options).thinking).toEqual({
      type: 'disabled',
    });
  });

  it('merges providerOptions of the protocol, then of the provider id, last', () => {
    const request: LlmRequest = {
      ...base,
      temperature: 1,
      providerOptions: { anthropic: { top_k: 5, temperature: 0.5 }, zai: { top_k: 7 }, openai: { seed: 1 } },
    };
    expect(buildAnthropicRequestBody(request, options)).toMatchObject({ top_k: 5, temperature: 0.5 });
    expect(buildAnthropicRequestBody(request, { providerId: 'zai' })).toMatchObject({ top_k: 7, temperature: 0.5 });
    expect(buildAnthropicRequestBody(request, options)).not.toHaveProperty('seed');
  });
});
