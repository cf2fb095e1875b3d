import { z } from 'zod';

const text = z.string().max(1_000_000, 'must be at most 1,000,000 characters');

/** Content of a user message: a string, or text/image blocks. */
export const userContentSchema = z.union(
  [
    text.min(1, 'must not be empty'),
    z
      .array(
        z.discriminatedUnion('type', [
          z.strictObject({ type: z.literal('text'), text }),
          z.strictObject({
            type: z.literal('image'),
            source: z.strictObject({
              type: z.literal('base64'),
              mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
              data: z.string().max(20_000_000),
            }),
          }),
        ]),
      )
      .min(1, 'must hold at least one block'),
  ],
  { error: 'must be a string or an array of { "type": "text", "text": ... } blocks' },
);

/** `POST /sessions/:id/runs`. */
export const startRunSchema = z.strictObject({
  input: userContentSchema,
  agent: z.string().min(1).max(64).optional(),
  model: z.string().min(1).max(200).regex(/^\S+$/, 'must be "provider/model" without spaces').optional(),
  budgetUsd: z.number().positive('must be more than 0').max(10_000).optional(),
  maxTurns: z.number().int().positive().max(10_000).optional(),
  busy: z.enum(['reject', 'enqueue', 'interrupt'], { error: 'must be "reject", "enqueue" or "interrupt"' }).optional(),
  onRestart: z.enum(['resume', 'interrupt'], { error: 'must be "resume" or "interrupt"' }).optional(),
  /** `background` answers 202 at once; `wait` answers when the run is final; `stream` answers with its SSE stream. */
  mode: z.enum(['background', 'wait', 'stream'], { error: 'must be "background", "wait" or "stream"' }).optional(),
});

/** `POST /runs/:id/messages`. */
export const injectSchema = z.strictObject({ content: userContentSchema });

/** Session ids: what `POST /sessions` accepts and what a run may create. */
export const sessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,128}$/, 'must be 1-128 letters, digits, ".", "_" or "-"');

/** `POST /sessions`. */
export const createSessionSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,128}$/, 'must be 1-128 letters, digits, ".", "_" or "-"')
    .optional(),
  title: z.string().max(500).optional(),
  agent: z.string().min(1).max(64).optional(),
  model: z.string().min(1).max(200).optional(),
});

/** `PATCH /sessions/:id`. */
export const renameSessionSchema = z.strictObject({ title: z.string().min(1, 'must not be empty').max(500) });

/** `POST /sessions/:id/fork`. */
export const forkSessionSchema = z.strictObject({
  atSeq: z.number().int().positive('must be a message position (1 or more)'),
  title: z.string().max(500).optional(),
});

/** `PUT /files/content` (JSON form), `POST /files/move`. */
export const writeFileSchema = z.strictObject({
  path: z.string().min(1).max(4096),
  content: z.string().max(50_000_000),
  encoding: z.enum(['utf8', 'base64']).optional(),
  /** The `ETag` the client read (or `absent`): the write is refused with a conflict when the file is not that one now. */
  ifMatch: z.string().min(1).max(200).optional(),
});
/** `POST /files/folder`. */
export const createFolderSchema = z.strictObject({ path: z.string().min(1).max(4096) });
export const moveFileSchema = z.strictObject({
  from: z.string().min(1).max(4096),
  to: z.string().min(1).max(4096),
});

/** Query of `GET /usage`. */
export const usageQuerySchema = z.strictObject({
  groupBy: z.enum(['day', 'model', 'provider', 'agent', 'session']).default('day'),
  since: z.coerce.number().int().nonnegative().optional(),
  until: z.coerce.number().int().nonnegative().optional(),
});

/** Session listing and search queries. */
export const listQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export const searchQuerySchema = z.strictObject({
  q: z.string().min(1, 'must not be empty').max(500),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  sessionId: z.string().max(128).optional(),
});
