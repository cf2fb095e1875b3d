import { textResult } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { capToolResult } from './cap-tool-result.js';

describe('capToolResult', () => {
  it('keeps head and tail and says what was cut', () => {
    const result = textResult(`HEAD${'x'.repeat(10_000)}TAIL`);
    const capped = capToolResult(result, 1000);
    const text = capped.content[0]?.type === 'text' ? capped.content[0].text : '';
    expect(text.startsWith('HEAD')).toBe(true);
    expect(text.endsWith('TAIL')).toBe(true);
    expect(text).toContain('9008 characters cut from the middle');
    expect(text.length).toBeLessThan(1400);
    expect(capped.metadata).toMatchObject({ truncated: { originalChars: 10_008, keptChars: 1000 } });
  });

  it('returns a result within the limit unchanged', () => {
    const result = textResult('short');
    expect(capToolResult(result, 1000)).toBe(result);
  });
});
