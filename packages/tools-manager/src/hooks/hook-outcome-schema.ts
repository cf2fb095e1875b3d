import { z } from 'zod';

const mediaSourceSchema = z.union([
  z.object({ type: z.literal('base64'), data: z.string(), mediaType: z.string().min(1) }),
  z.object({ type: z.literal('url'), url: z.string().min(1) }),
]);

const resultContentSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), source: mediaSourceSchema }),
]);

/** A tool result as a hook may send it back (text and image blocks, an error flag, metadata). */
export const hookToolResultSchema = z.object({
  content: z.array(resultContentSchema),
  isError: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const jsonObjectSchema = z.record(z.string(), z.unknown());

/**
 * What a before-tool hook may answer: block with a reason, replace the input, or `{}` (go on).
 * Strict: an unknown key is a mistake in the hook, reported rather than guessed at.
 */
export const beforeToolOutcomeSchema = z.union([
  z.strictObject({ block: z.literal(true), reason: z.string().optional() }),
  z.strictObject({ input: jsonObjectSchema }),
  z.strictObject({}),
]);

/** What an after-tool hook may answer: a replacement result, an annotation, or `{}` (nothing). */
export const afterToolOutcomeSchema = z.union([
  z.strictObject({ result: hookToolResultSchema }),
  z.strictObject({ annotate: z.string() }),
  z.strictObject({}),
]);

/** Turns a zod error into one short line for a hook failure report. */
export function describeOutcomeError(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(outcome)'}: ${issue.message}`)
    .join('; ');
}
