import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import type { UserAnswer } from '../tool-context.js';
import { errorResult, textResult } from '../tool-results.js';

const optionSchema = z.object({
  label: z.string().trim().min(1).max(100).describe('The choice as the user sees it, in a few words.'),
  description: z
    .string()
    .max(500)
    .optional()
    .describe('What choosing it means or implies (trade-offs), in one sentence.'),
});

const inputSchema = z.object({
  question: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .describe('The question, complete and specific, ending with "?". Include the context the user needs to answer.'),
  options: z
    .array(optionSchema)
    .min(2)
    .max(10)
    .optional()
    .describe('Choices to offer (2 to 10, distinct labels). Leave out for a free-text answer.'),
  multiSelect: z
    .boolean()
    .optional()
    .describe('Let the user pick several options instead of one. Only with `options`.'),
});

const NO_USER =
  'No user is available to answer in this run. Proceed with your best judgement: choose the most reasonable option, ' +
  'state the assumption you made in your answer, and continue the task.';

/**
 * Asks the user a question (free text or choices) through the host's `context.ask`. In a
 * non-interactive run it answers, without error, that no user is available so the model proceeds
 * on its best judgement and states its assumptions.
 */
export const askUserQuestionTool = defineTool({
  name: 'ask_user_question',
  description: [
    'Ask the user a question and wait for the answer.',
    'Use it when you cannot continue well without their input: an ambiguous requirement, a choice between approaches',
    'with real trade-offs, a preference only they know, or a confirmation before something hard to undo.',
    'Offer `options` when the answers are a known set. Do not use it for things you can find out yourself by reading',
    'files or running tools, and ask one clear question at a time. If no user is available, the result says so:',
    'then proceed on your best judgement and state your assumptions.',
  ].join(' '),
  inputSchema,
  permission: 'read-only',
  concurrencySafe: false,
  execute: async ({ question, options, multiSelect }, context) => {
    if (multiSelect === true && options === undefined) {
      return errorResult('`multiSelect` needs `options`: add the choices, or leave `multiSelect` out for free text.');
    }
    if (options !== undefined) {
      const labels = options.map((option) => option.label.toLowerCase());
      const duplicate = labels.find((label, index) => labels.indexOf(label) !== index);
      if (duplicate !== undefined) {
        return errorResult(`Option labels must be distinct; "${duplicate}" appears twice. Rename or merge them.`);
      }
    }
    if (context.ask === undefined) {
      return textResult(NO_USER, { answered: false, reason: 'non-interactive' });
    }
    if (context.signal.aborted) return errorResult('The question was not asked: the call was cancelled.');
    let answer: UserAnswer;
    try {
      answer = await raceAbort(
        context.ask(
          {
            question,
            ...(options === undefined ? {} : { options }),
            ...(multiSelect === undefined ? {} : { multiSelect }),
          },
          context.signal,
        ),
        context.signal,
      );
    } catch (error) {
      if (context.signal.aborted) return errorResult('The question was cancelled before the user answered.');
      const message = error instanceof Error ? error.message : String(error);
      context.logger?.warn('ask_user_question failed', { error: message });
      return errorResult(
        `The question could not be shown to the user (${message}). Proceed with your best judgement and state your assumptions.`,
      );
    }
    if (!answer.answered) {
      return textResult(
        `The user did not answer (${answer.reason}). Proceed with your best judgement: state the assumption you made and continue.`,
        { answered: false, reason: answer.reason },
      );
    }
    return textResult(`The user answered: ${answer.answer}`, { answered: true, answer: answer.answer });
  },
});

/** Settles with `promise`, or rejects as soon as `signal` aborts (the host may ignore the signal). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
