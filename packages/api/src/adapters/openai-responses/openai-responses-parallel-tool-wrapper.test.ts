import { describe, expect, it } from 'vitest';
import { expandParallelToolWrapper, isParallelWrapperCandidate } from './openai-responses-parallel-tool-wrapper.js';

const declared = new Set(['weather', 'cityAttractions']);
const wrapper = JSON.stringify({
  tool_uses: [
    { recipient_name: 'functions.weather', parameters: { location: 'SF' } },
    { recipient_name: 'cityAttractions' },
  ],
});

describe('isParallelWrapperCandidate', () => {
  it('recognises the wrapper names only when they are not declared tools', () => {
    expect(isParallelWrapperCandidate('parallel', declared)).toBe(true);
    expect(isParallelWrapperCandidate('multi_tool_use.parallel', declared)).toBe(true);
    expect(isParallelWrapperCandidate('weather', declared)).toBe(false);
    expect(isParallelWrapperCandidate('parallel', new Set(['parallel']))).toBe(false);
    expect(isParallelWrapperCandidate('parallel', new Set())).toBe(false);
  });
});

describe('expandParallelToolWrapper', () => {
  it('expands into the declared calls, in order, with missing parameters as {}', () => {
    expect(expandParallelToolWrapper(wrapper, declared)).toEqual([
      { name: 'weather', input: { location: 'SF' } },
      { name: 'cityAttractions', input: {} },
    ]);
  });

  it.each([
    ['invalid JSON', '{"tool_uses": ['],
    ['no tool_uses', '{"x": 1}'],
    ['an empty list', '{"tool_uses": []}'],
    ['an undeclared tool', JSON.stringify({ tool_uses: [{ recipient_name: 'functions.rm', parameters: {} }] })],
    ['a non-object entry', JSON.stringify({ tool_uses: ['weather'] })],
    ['array parameters', JSON.stringify({ tool_uses: [{ recipient_name: 'weather', parameters: [1] }] })],
  ])('leaves %s alone', (_name, text) => {
    expect(expandParallelToolWrapper(text, declared)).toBeUndefined();
  });
});
