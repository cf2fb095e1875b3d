import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../gateway-error.js';
import type { RunQuestion } from '../http/api-types/runs.js';
import { checkAnswer } from './question-answer.js';
import { boundedInput } from './question-display.js';

const multi: RunQuestion = {
  questionId: 'q1',
  kind: 'question',
  question: 'Which checks?',
  options: [{ label: 'Lint' }, { label: 'Test' }, { label: 'Build' }],
  multiSelect: true,
};

function refusal(question: RunQuestion, body: unknown): { message: string; issues: readonly { path: string }[] } {
  try {
    checkAnswer(question, body);
  } catch (error) {
    if (isGatewayError(error) && error.reason === 'invalid-request') return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('checkAnswer', () => {
  it('takes several labels for a multi-select question, never an unknown or repeated one', () => {
    expect(checkAnswer(multi, { answer: ['Lint', 'Build'] })).toEqual({ kind: 'question', answer: ['Lint', 'Build'] });
    expect(refusal(multi, { answer: ['Lint', 'Deploy'] }).message).toContain('must be one of "Lint", "Test", "Build"');
    expect(refusal(multi, { answer: ['Lint', 'Lint'] }).message).toContain('must not name an option twice');
    expect(refusal(multi, { answer: [] }).message).toContain('must pick at least one option');
    expect(refusal(multi, { answer: 'Lint' }).message).toContain('must be an array of labels');
  });

  it('names an unknown field and keeps a denial reason', () => {
    const permission: RunQuestion = { questionId: 'p', kind: 'permission', question: 'May it?' };
    expect(checkAnswer(permission, { decision: 'deny', reason: ' too risky ' })).toEqual({
      kind: 'permission',
      decision: 'deny',
      reason: 'too risky',
    });
    expect(refusal(permission, { decision: 'allow', remember: true }).issues[0]?.path).toBe('(body)');
  });
});

describe('boundedInput', () => {
  it('cuts long strings, long lists and deep nesting for display', () => {
    const deep = { a: { b: { c: { d: { e: { f: 'too deep' } } } } } };
    const bounded = boundedInput({ text: 'x'.repeat(5000), list: Array.from({ length: 60 }, (_, i) => i), deep }) as {
      text: string;
      list: unknown[];
      deep: unknown;
    };
    expect(bounded.text).toHaveLength(2001);
    expect(bounded.text.endsWith('…')).toBe(true);
    expect(bounded.list).toHaveLength(51);
    expect(bounded.list.at(-1)).toBe('… 10 more');
    expect(JSON.stringify(bounded.deep)).toBe('{"a":{"b":{"c":{"d":"…"}}}}');
  });
});
