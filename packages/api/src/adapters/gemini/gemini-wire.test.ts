import { describe, expect, it } from 'vitest';
import { geminiModelListSchema, geminiResponseSchema } from './gemini-wire.js';

describe('geminiResponseSchema', () => {
  it('accepts unknown fields and keeps them', () => {
    const parsed = geminiResponseSchema.parse({
      candidates: [{ content: { parts: [{ text: 'a', executableCode: { code: 'x' } }] }, safetyRatings: [] }],
      createTime: '2026-05-04T20:01:02Z',
    });
    expect(parsed.candidates?.[0]?.content?.parts?.[0]).toEqual({ text: 'a', executableCode: { code: 'x' } });
    expect((parsed as Record<string, unknown>).createTime).toBe('2026-05-04T20:01:02Z');
  });

  it('keeps function-call arguments of any type, so a broken one can be reported', () => {
    const parsed = geminiResponseSchema.parse({
      candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: '{"a"' } }] } }],
    });
    expect(parsed.candidates?.[0]?.content?.parts?.[0]?.functionCall?.args).toBe('{"a"');
  });

  it('rejects a chunk whose parts are not a list', () => {
    expect(geminiResponseSchema.safeParse({ candidates: [{ content: { parts: 'text' } }] }).success).toBe(false);
  });
});

describe('geminiModelListSchema', () => {
  it('requires model names', () => {
    expect(geminiModelListSchema.safeParse({ models: [{ displayName: 'x' }] }).success).toBe(false);
    expect(geminiModelListSchema.parse({ models: [{ name: 'models/a' }] }).models).toEqual([{ name: 'models/a' }]);
  });
});
