import { describe, expect, it } from 'vitest';
import { executeTool } from '../execute-tool.js';
import { testContext } from '../test/context.js';
import type { UserAnswer, UserQuestion } from '../tool-context.js';
import { resultText } from '../tool-results.js';
import { askUserQuestionTool } from './ask-user-question.js';

function recordingAsk(answer: UserAnswer) {
  const asked: UserQuestion[] = [];
  const ask = async (question: UserQuestion) => {
    asked.push(question);
    return answer;
  };
  return { asked, ask };
}

describe('ask_user_question', () => {
  it('asks a free-text question and returns the answer as text', async () => {
    const { asked, ask } = recordingAsk({ answered: true, answer: 'Use PostgreSQL.' });
    const result = await executeTool(askUserQuestionTool, { question: 'Which database?' }, testContext({ ask }));
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe('The user answered: Use PostgreSQL.');
    expect(result.metadata).toEqual({ answered: true, answer: 'Use PostgreSQL.' });
    expect(asked).toEqual([{ question: 'Which database?' }]);
  });

  it('passes choices and multiSelect to the host', async () => {
    const { asked, ask } = recordingAsk({ answered: true, answer: 'Vitest, Biome' });
    const options = [{ label: 'Vitest', description: 'tests' }, { label: 'Biome' }, { label: 'ESLint' }];
    const result = await executeTool(
      askUserQuestionTool,
      { question: 'Which tools?', options, multiSelect: true },
      testContext({ ask }),
    );
    expect(resultText(result)).toBe('The user answered: Vitest, Biome');
    expect(asked).toEqual([{ question: 'Which tools?', options, multiSelect: true }]);
  });

  it('tells the model to proceed, without error, when no user is available', async () => {
    const result = await executeTool(askUserQuestionTool, { question: 'Ready?' }, testContext());
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toMatch(/No user is available.*best judgement.*assumption/);
    expect(result.metadata).toEqual({ answered: false, reason: 'non-interactive' });
  });

  it('reports a declined question as a non-error with the reason', async () => {
    const { ask } = recordingAsk({ answered: false, reason: 'the user dismissed the question' });
    const result = await executeTool(askUserQuestionTool, { question: 'Ready?' }, testContext({ ask }));
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toContain('The user did not answer (the user dismissed the question)');
  });

  it('refuses invalid input with a readable message', async () => {
    const ask = async (): Promise<UserAnswer> => ({ answered: true, answer: 'x' });
    const context = testContext({ ask });
    const empty = await executeTool(askUserQuestionTool, { question: '   ' }, context);
    expect(empty.isError).toBe(true);
    expect(resultText(empty)).toContain('question');
    const single = await executeTool(askUserQuestionTool, { question: 'A?', options: [{ label: 'only' }] }, context);
    expect(single.isError).toBe(true);
    expect(resultText(single)).toContain('options');
    const lonely = await executeTool(askUserQuestionTool, { question: 'A?', multiSelect: true }, context);
    expect(resultText(lonely)).toContain('`multiSelect` needs `options`');
    const twice = await executeTool(
      askUserQuestionTool,
      { question: 'A?', options: [{ label: 'Yes' }, { label: 'yes' }] },
      context,
    );
    expect(resultText(twice)).toContain('"yes" appears twice');
  });

  it('stops waiting when the call is aborted, even if the host ignores the signal', async () => {
    const controller = new AbortController();
    const ask = () => new Promise<UserAnswer>(() => {});
    const direct = askUserQuestionTool.execute(
      { question: 'Still there?' },
      testContext({ ask, signal: controller.signal }),
    );
    controller.abort();
    const result = await direct;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('The question was cancelled before the user answered.');
  });

  it('hands the host the abort signal', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const ask = (_question: UserQuestion, signal: AbortSignal) => {
      seen = signal;
      return new Promise<UserAnswer>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason)),
      );
    };
    const call = executeTool(
      askUserQuestionTool,
      { question: 'Now?' },
      testContext({ ask, signal: controller.signal }),
    );
    await Promise.resolve();
    controller.abort();
    const result = await call;
    expect(seen?.aborted).toBe(true);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('cancelled');
  });

  it('turns a failing host into an error result that says how to go on', async () => {
    const ask = async (): Promise<UserAnswer> => {
      throw new Error('terminal closed');
    };
    const result = await executeTool(askUserQuestionTool, { question: 'Ready?' }, testContext({ ask }));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('could not be shown to the user (terminal closed)');
    expect(resultText(result)).toContain('best judgement');
  });
});
