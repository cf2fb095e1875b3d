import { ContextOverflowError, NetworkError, OverloadedError, toLlmError } from '@boxagnts/api';
import { describe, expect, it } from 'vitest';
import { testRunState } from '../test/run-state.js';
import { recoverTurn, resumeAfterMaxTokens } from './recover-turn.js';

describe('recoverTurn', () => {
  it('compacts on overflow up to the allowed times in a row, then stops', () => {
    const state = testRunState({ recovery: { overflowCompactions: 2 } });
    const overflow = new ContextOverflowError({ providerId: 'anthropic', message: 'too long' });
    expect(recoverTurn(state, overflow)).toEqual({ action: 'compact', attempt: 1 });
    expect(recoverTurn(state, overflow)).toEqual({ action: 'compact', attempt: 2 });
    expect(recoverTurn(state, overflow)).toEqual({ action: 'stop', reason: 'context_overflow' });
    state.overflowCompactions = 0; // a successful call in between
    expect(recoverTurn(state, overflow).action).toBe('compact');
    state.compactionStalled = true;
    expect(recoverTurn(state, overflow).action).toBe('stop');
  });

  it('falls back on overload, retries dropped streams, stops on anything else', () => {
    const state = testRunState({ fallbackModels: [{ model: 'claude-haiku-4-5' }], recovery: { streamRetries: 1 } });
    expect(recoverTurn(state, new OverloadedError({ providerId: 'anthropic', message: 'busy' }))).toMatchObject({
      action: 'fallback',
      next: { model: 'claude-haiku-4-5' },
    });
    expect(recoverTurn(state, new OverloadedError({ providerId: 'anthropic', message: 'busy' })).action).toBe('stop');
    const dropped = new NetworkError({ providerId: 'anthropic', message: 'reset' });
    expect(recoverTurn(state, dropped)).toEqual({ action: 'retry', attempt: 1 });
    expect(recoverTurn(state, dropped)).toEqual({ action: 'stop', reason: 'error' });
    expect(recoverTurn(state, toLlmError(new Error('boom'), { providerId: 'anthropic' }))).toEqual({
      action: 'stop',
      reason: 'error',
    });
  });

  it('resumes after max_tokens a bounded number of times', () => {
    const state = testRunState({ recovery: { maxTokensResumes: 1 } });
    expect(resumeAfterMaxTokens(state)).toEqual({ resume: true });
    const stopped = resumeAfterMaxTokens(state);
    expect(stopped.resume).toBe(false);
  });
});
