import type { Context } from 'hono';
import type { z } from 'zod';
import { GatewayError } from '../gateway-error.js';

/** Field-level issues of a zod error as `{path, message}` (path like `input.0.content`). */
export function zodIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.length === 0 ? '(body)' : issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Validates a value against a schema; a mismatch is an `invalid-request` error naming each field. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown, what: string): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error);
  throw new GatewayError({
    reason: 'invalid-request',
    message: `Invalid ${what}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
    issues,
  });
}

/** Reads and validates a JSON request body; bad JSON or a schema mismatch is an `invalid-request` error. */
export async function readJsonBody<Schema extends z.ZodType>(
  context: Context,
  schema: Schema,
): Promise<z.output<Schema>> {
  const text = await context.req.text();
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw new GatewayError({
        reason: 'invalid-request',
        message: 'The request body is not valid JSON: send a JSON object with Content-Type: application/json.',
      });
    }
  }
  return parseWith(schema, value, 'request body');
}
