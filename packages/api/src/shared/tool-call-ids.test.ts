import { describe, expect, it } from 'vitest';
import { ANTHROPIC_TOOL_CALL_ID_RULES, toVendorToolCallId } from './tool-call-ids.js';

describe('toVendorToolCallId', () => {
  it('keeps ids that are already valid', () => {
    expect(toVendorToolCallId('toolu_01ABC', ANTHROPIC_TOOL_CALL_ID_RULES)).toBe('toolu_01ABC');
    expect(toVendorToolCallId('abc123XYZ', { maxLength: 9, allowed: /[a-zA-Z0-9]/ })).toBe('abc123XYZ');
  });

  it('replaces invalid characters and appends a hash so distinct ids stay distinct', () => {
    const first = toVendorToolCallId('call|fc_1', ANTHROPIC_TOOL_CALL_ID_RULES);
    const second = toVendorToolCallId('call.fc_1', ANTHROPIC_TOOL_CALL_ID_RULES);
    expect(first).toMatch(/^call_fc_1_[a-zA-Z0-9]{8}$/);
    expect(second).toMatch(/^call_fc_1_[a-zA-Z0-9]{8}$/);
    expect(first).not.toBe(second);
  });

  it('fits the maximum length and is deterministic', () => {
    const rules = { maxLength: 9, allowed: /[a-zA-Z0-9]/ };
    const long = 'toolu_01A09q90qw90lq917835lq9';
    const mapped = toVendorToolCallId(long, rules);
    expect(mapped).toHaveLength(8);
    expect(mapped).toMatch(/^[a-zA-Z0-9]+$/);
    expect(toVendorToolCallId(long, rules)).toBe(mapped);
    const forty = toVendorToolCallId('x'.repeat(64), { maxLength: 40 });
    expect(forty).toHaveLength(40);
    expect(forty.startsWith('x'.repeat(31))).toBe(true);
  });

  it('gives an empty id a hash', () => {
    expect(toVendorToolCallId('', ANTHROPIC_TOOL_CALL_ID_RULES)).toMatch(/^[a-zA-Z0-9]{8}$/);
  });
});
