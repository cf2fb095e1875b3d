import { z } from 'zod';

// Lenient on extra fields (vendors add some; they are kept as stored), strict on the shapes the
// loop and the adapters rely on. Validation only: the caller's own object is what gets stored.
const providerMetadata = z.record(z.string(), z.unknown()).optional();
const mediaSource = z.union([
  z.looseObject({ type: z.literal('base64'), data: z.string(), mediaType: z.string() }),
  z.looseObject({ type: z.literal('url'), url: z.string() }),
]);
const textBlock = z.looseObject({ type: z.literal('text'), text: z.string(), providerMetadata });
const imageBlock = z.looseObject({ type: z.literal('image'), source: mediaSource, providerMetadata });
const documentBlock = z.looseObject({
  type: z.literal('document'),
  source: mediaSource,
  title: z.string().optional(),
  context: z.string().optional(),
  providerMetadata,
});
// Transcript blocks (what a UI shows between turns); `TranscriptBlock` of @boxagnts/api.
const transcriptBlocks = [
  z.looseObject({
    type: z.literal('user_local_command_output'),
    command: z.string(),
    output: z.string(),
    providerMetadata,
  }),
  z.looseObject({ type: z.literal('user_command'), name: z.string(), args: z.string(), providerMetadata }),
  z.looseObject({ type: z.literal('user_memory_input'), key: z.string(), value: z.string(), providerMetadata }),
  z.looseObject({
    type: z.literal('system_api_error'),
    message: z.string(),
    retrySecs: z.number().nonnegative().finite().optional(),
    providerMetadata,
  }),
  z.looseObject({
    type: z.literal('collapsed_read_search'),
    toolName: z.string(),
    paths: z.array(z.string()),
    providerMetadata,
  }),
  z.looseObject({
    type: z.literal('task_assignment'),
    id: z.string(),
    subject: z.string(),
    description: z.string(),
    providerMetadata,
  }),
] as const;
const thinkingBlock = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});
const redactedThinkingBlock = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });
const toolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
const toolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  toolUseId: z.string(),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textBlock, imageBlock]))]),
  isError: z.boolean().optional(),
});

/** A `Message` of @boxagnts/api, as the store accepts it. */
export const messageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: z.union([z.string(), z.array(textBlock)]), providerMetadata }),
  z.looseObject({
    role: z.literal('user'),
    content: z.union([
      z.string(),
      z.array(
        z.discriminatedUnion('type', [textBlock, imageBlock, documentBlock, toolResultBlock, ...transcriptBlocks]),
      ),
    ]),
    providerMetadata,
  }),
  z.looseObject({
    role: z.literal('assistant'),
    content: z.array(z.discriminatedUnion('type', [textBlock, thinkingBlock, redactedThinkingBlock, toolUseBlock])),
    providerMetadata,
  }),
]);

const count = z.number().int().nonnegative();

/** A `Usage` of @boxagnts/api: token counts are non-negative integers. */
export const usageSchema = z.object({
  input: z.object({ total: count, noCache: count, cacheRead: count, cacheWrite: count }),
  output: z.object({ total: count, text: count, reasoning: count }),
});

/** A `SessionEntry` of @boxagnts/query. */
export const sessionEntrySchema = z.object({
  message: messageSchema,
  model: z.string().optional(),
  usage: usageSchema.optional(),
  createdAt: z.number().int().nonnegative().optional(),
  compaction: z.object({ keptMessages: count }).optional(),
});

/** A session id: 1 to 200 characters, no control characters. */
export const sessionIdSchema = z
  .string()
  .min(1)
  .max(200)
  .refine((value) => !/\p{Cc}/u.test(value), 'must not contain control characters');

type Issue = z.core.$ZodIssue;

/** The most specific issue: inside a union (`content` is a string or a list), the one that got furthest. */
function deepestIssue(issue: Issue, depth = 0): Issue {
  if (issue.code !== 'invalid_union' || depth > 20) return issue;
  let best: Issue = issue;
  for (const option of issue.errors) {
    for (const inner of option) {
      const candidate = deepestIssue({ ...inner, path: [...issue.path, ...inner.path] } as Issue, depth + 1);
      if (candidate.path.length > best.path.length) best = candidate;
    }
  }
  return best;
}

/** A one-line reason zod gave, for error messages. */
export function describeIssue(error: z.ZodError): string {
  const first = error.issues[0];
  if (first === undefined) return 'invalid value';
  const issue = deepestIssue(first);
  const path = issue.path.length > 0 ? issue.path.map(String).join('.') : 'value';
  return `${path}: ${issue.message}`;
}
