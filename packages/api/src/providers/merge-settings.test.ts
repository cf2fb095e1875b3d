import { describe, expect, it } from 'vitest';
import { mergeSettings } from './merge-settings.js';

describe('mergeSettings', () => {
  it('lets later layers win and skips undefined values and layers', () => {
    expect(mergeSettings({ baseURL: 'a', apiKey: 'x' }, undefined, { baseURL: 'b', apiKey: undefined })).toEqual({
      baseURL: 'b',
      apiKey: 'x',
    });
  });

  it('merges plain objects one level deep', () => {
    const merged = mergeSettings(
      { compat: { maxTokensField: 'max_tokens', thinking: 'thinking-type' }, headers: { a: '1' } },
      { compat: { thinking: 'none', echoReasoningContent: undefined }, headers: { b: '2' } },
    );
    expect(merged).toEqual({
      compat: { maxTokensField: 'max_tokens', thinking: 'none' },
      headers: { a: '1', b: '2' },
    });
  });

  it('replaces arrays, class instances and functions whole', () => {
    class Dispatcher {}
    const dispatcher = new Dispatcher();
    const token = () => 't';
    const merged = mergeSettings(
      { apiKeyEnvVars: ['A', 'B'], dispatcher: new Dispatcher(), accessToken: () => 'old' },
      { apiKeyEnvVars: ['C'], dispatcher, accessToken: token },
    );
    expect(merged.apiKeyEnvVars).toEqual(['C']);
    expect(merged.dispatcher).toBe(dispatcher);
    expect(merged.accessToken).toBe(token);
  });

  it('does not change its inputs', () => {
    const first = { compat: { thinking: 'none' } };
    mergeSettings(first, { compat: { thinking: 'openrouter' } });
    expect(first).toEqual({ compat: { thinking: 'none' } });
  });
});
