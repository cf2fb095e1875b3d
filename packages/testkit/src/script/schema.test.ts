import { describe, expect, it } from 'vitest';
import { MockScriptError, parseMockFault, parseMockScript } from './schema.js';

describe('parseMockScript', () => {
  it('accepts a script with rules, turns and replays', () => {
    const script = parseMockScript({
      rules: [{ match: { model: 'a' }, steps: [{ text: 'hi' }] }],
      steps: [
        { content: [{ type: 'tool_call', name: 'read', input: { path: 'x' } }] },
        { replay: '/tmp/x.chunks.txt', protocol: 'anthropic' },
        { fault: { kind: 'http_error', error: 'rate_limit', retryAfterSeconds: 2 } },
      ],
    });
    expect(script.steps).toHaveLength(3);
    expect(script.rules?.[0]?.match.model).toBe('a');
  });

  it('names the path and the problem of every invalid field', () => {
    let caught: unknown;
    try {
      parseMockScript({ steps: [{ text: 'ok' }, { content: [{ type: 'tool_call', name: '' }] }, { replay: '' }] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MockScriptError);
    const issues = (caught as MockScriptError).issues;
    expect(issues.map((issue) => issue.path)).toEqual(['steps[1].content[0].name', 'steps[2].replay']);
    expect((caught as Error).message).toContain('a tool call needs a name');
  });

  it('rejects unknown keys instead of ignoring a typo', () => {
    expect(() => parseMockScript({ steps: [{ txt: 'hi' }] })).toThrow(/steps\[0\]/);
    expect(() => parseMockScript({ step: [] })).toThrow(MockScriptError);
  });
});

describe('parseMockFault', () => {
  it('validates fault kinds and their fields', () => {
    expect(parseMockFault({ kind: 'reset', afterBytes: 10 })).toEqual({ kind: 'reset', afterBytes: 10 });
    expect(() => parseMockFault({ kind: 'reset', afterBytes: -1 })).toThrow(/afterBytes/);
    expect(() => parseMockFault({ kind: 'explode' })).toThrow(MockScriptError);
    expect(() => parseMockFault({ kind: 'http_error', error: 'rate_limit', status: 200 })).toThrow(/status/);
  });
});

describe('usage consistency', () => {
  it('rejects cache or reasoning counts larger than the totals they are part of', () => {
    expect(() => parseMockScript({ steps: [{ text: 'x', usage: { input: 5, cacheRead: 10 } }] })).toThrow(
      /steps\[0\]\.usage\.input: input counts cached tokens/,
    );
    expect(() => parseMockScript({ steps: [{ text: 'x', usage: { output: 1, reasoning: 2 } }] })).toThrow(
      /usage\.output/,
    );
    expect(parseMockScript({ steps: [{ text: 'x', usage: { input: 120, cacheRead: 100 } }] }).steps).toHaveLength(1);
  });
});
