import { z } from 'zod';
import { GatewayError } from '../gateway-error.js';
import type { RunQuestion, RunQuestionAnswered } from '../http/api-types/runs.js';
import { parseWith } from '../http/read-body.js';

/** The user's answer to one question, as checked against it. */
export type CheckedAnswer =
  | { kind: 'permission'; decision: 'allow' | 'deny'; reason?: string }
  | { kind: 'question'; answer: string | string[] };

const reasonSchema = z.string().trim().min(1, 'must not be empty').max(2_000, 'must be at most 2,000 characters');

function quoted(labels: readonly string[]): string {
  return labels.map((label) => JSON.stringify(label)).join(', ');
}

/** The schema an answer to `question` must match: a decision for a permission, else a label, labels, or free text. */
function answerSchemaFor(question: RunQuestion): z.ZodType {
  if (question.kind === 'permission') {
    return z.strictObject({
      decision: z.enum(['allow', 'deny'], { error: 'must be "allow" or "deny"' }),
      reason: reasonSchema.optional(),
    });
  }
  const labels = (question.options ?? []).map((option) => option.label);
  if (labels.length === 0) {
    return z.strictObject({
      answer: z
        .string({ error: 'must be a string (this question takes free text)' })
        .trim()
        .min(1, 'must not be empty')
        .max(10_000, 'must be at most 10,000 characters'),
    });
  }
  const label = z.enum(labels as [string, ...string[]], { error: `must be one of ${quoted(labels)}` });
  if (question.multiSelect === true) {
    return z.strictObject({
      answer: z
        .array(label, { error: `must be an array of labels from ${quoted(labels)}` })
        .min(1, 'must pick at least one option')
        .refine((picked) => new Set(picked).size === picked.length, 'must not name an option twice'),
    });
  }
  return z.strictObject({ answer: label });
}

function refuse(path: string, message: string, what: string): never {
  throw new GatewayError({
    reason: 'invalid-request',
    message: `Invalid ${what}: ${path}: ${message}.`,
    issues: [{ path, message }],
  });
}

function hasKey(body: unknown, key: string): boolean {
  return typeof body === 'object' && body !== null && key in body;
}

/**
 * Checks a request body against the question it answers; a mismatch is an `invalid-request` error
 * naming the field and what to send instead.
 */
export function checkAnswer(question: RunQuestion, body: unknown): CheckedAnswer {
  const what =
    question.kind === 'permission'
      ? 'answer (this question is a permission request: send {"decision": "allow" | "deny", "reason"?})'
      : `answer (this question takes {"answer": ${question.options === undefined ? 'free text' : question.multiSelect === true ? '[labels]' : 'one label'}})`;
  if (question.kind === 'question' && hasKey(body, 'decision') && !hasKey(body, 'answer')) {
    refuse('decision', 'this question is not a permission request: send {"answer": ...} instead', what);
  }
  if (question.kind === 'permission' && hasKey(body, 'answer') && !hasKey(body, 'decision')) {
    refuse('answer', 'this question is a permission request: send {"decision": "allow" | "deny"} instead', what);
  }
  if (
    question.kind === 'question' &&
    question.multiSelect !== true &&
    Array.isArray((body as { answer?: unknown })?.answer)
  ) {
    refuse('answer', 'must be one label, not a list (the question takes one choice)', what);
  }
  const parsed = parseWith(answerSchemaFor(question), body, what) as Record<string, unknown>;
  if (question.kind === 'permission') {
    const decision = parsed.decision as 'allow' | 'deny';
    return {
      kind: 'permission',
      decision,
      ...(parsed.reason === undefined ? {} : { reason: parsed.reason as string }),
    };
  }
  return { kind: 'question', answer: parsed.answer as string | string[] };
}

/** The `question-answered` event data of a user's checked answer. */
export function answeredByUser(questionId: string, answer: CheckedAnswer): RunQuestionAnswered {
  return answer.kind === 'permission'
    ? {
        questionId,
        by: 'user',
        decision: answer.decision,
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
      }
    : { questionId, by: 'user', answer: answer.answer };
}
