import { z } from 'zod';
import { PROTOCOL_IDS, type ProtocolId } from '../protocols/protocol.js';
import type { MockFault, MockScript } from './types.js';

/** A script or fault that does not validate; the message names the field and what to change. */
export class MockScriptError extends Error {
  /** Where the problems are, e.g. `steps[2].content[0].name`. */
  readonly issues: Array<{ path: string; message: string }>;

  constructor(source: string, issues: Array<{ path: string; message: string }>) {
    const lines = issues.map((issue) => `  - ${issue.path || '(root)'}: ${issue.message}`);
    super(`Invalid mock ${source}:\n${lines.join('\n')}`);
    this.name = 'MockScriptError';
    this.issues = issues;
  }
}

const protocolSchema = z.enum(PROTOCOL_IDS as [ProtocolId, ...ProtocolId[]]);
const nonNegativeInt = z.number().int().nonnegative();

const errorKindSchema = z.enum([
  'rate_limit',
  'overloaded',
  'quota',
  'context_overflow',
  'auth',
  'permission',
  'not_found',
  'invalid_request',
  'server',
]);

const blockSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }),
  z.strictObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.strictObject({
    type: z.literal('tool_call'),
    id: z.string().min(1).optional(),
    name: z.string().min(1, 'a tool call needs a name'),
    input: z.unknown().optional(),
    rawArguments: z.string().optional(),
  }),
]);

const chunkingSchema = z.strictObject({
  textDelta: z.number().int().positive().optional(),
  argumentsDelta: z.number().int().positive().optional(),
  writeBytes: z.number().int().positive().optional(),
  delayMs: nonNegativeInt.max(60_000).optional(),
});

const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('http_error'),
    error: errorKindSchema,
    status: z.number().int().min(400).max(599).optional(),
    message: z.string().optional(),
    retryAfterSeconds: z.number().nonnegative().optional(),
    retryAfterMs: nonNegativeInt.optional(),
    requestedTokens: nonNegativeInt.optional(),
    limitTokens: nonNegativeInt.optional(),
  }),
  z.strictObject({ kind: z.literal('reset'), afterBytes: nonNegativeInt }),
  z.strictObject({ kind: z.literal('truncate') }),
  z.strictObject({
    kind: z.literal('stall'),
    afterEvents: nonNegativeInt.optional(),
    pingIntervalMs: z.number().int().positive().optional(),
  }),
  z.strictObject({ kind: z.literal('malformed_tool_arguments') }),
  z.strictObject({ kind: z.literal('duplicate_tool_ids') }),
  z.strictObject({ kind: z.literal('missing_tool_ids') }),
  z.strictObject({
    kind: z.literal('mid_stream_error'),
    afterEvents: nonNegativeInt.optional(),
    error: errorKindSchema.optional(),
    message: z.string().optional(),
  }),
]);

const usageSchema = z
  .strictObject({
    input: nonNegativeInt.optional(),
    output: nonNegativeInt.optional(),
    cacheRead: nonNegativeInt.optional(),
    cacheWrite: nonNegativeInt.optional(),
    reasoning: nonNegativeInt.optional(),
  })
  .refine((usage) => usage.input === undefined || (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0) <= usage.input, {
    message: 'input counts cached tokens too: it must be at least cacheRead + cacheWrite',
    path: ['input'],
  })
  .refine((usage) => usage.output === undefined || (usage.reasoning ?? 0) <= usage.output, {
    message: 'output counts reasoning tokens too: it must be at least reasoning',
    path: ['output'],
  });

const turnSchema = z.strictObject({
  text: z.string().optional(),
  content: z.array(blockSchema).optional(),
  stopReason: z
    .enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'pause_turn', 'content_filter'])
    .optional(),
  rawStopReason: z.string().optional(),
  usage: usageSchema.optional(),
  model: z.string().optional(),
  fault: faultSchema.optional(),
  chunking: chunkingSchema.optional(),
});

const replaySchema = z.strictObject({
  replay: z.string().min(1, 'give the path of a recorded *.chunks.txt or *.json file'),
  protocol: protocolSchema.optional(),
  status: z.number().int().min(200).max(599).optional(),
  chunking: chunkingSchema.optional(),
  fault: faultSchema.optional(),
});

/** A step is a replay when it has a `replay` key, a scripted turn otherwise; errors name the right fields. */
const stepSchema = z.unknown().transform((value, context) => {
  const isReplay = typeof value === 'object' && value !== null && 'replay' in value;
  const result = (isReplay ? replaySchema : turnSchema).safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  }
  return z.NEVER;
});

const scriptSchema = z.strictObject({
  rules: z
    .array(
      z.strictObject({
        match: z.strictObject({
          model: z.string().optional(),
          protocol: protocolSchema.optional(),
          contains: z.string().optional(),
          stream: z.boolean().optional(),
        }),
        steps: z.array(stepSchema).min(1, 'a rule needs at least one step'),
        repeatLast: z.boolean().optional(),
      }),
    )
    .optional(),
  steps: z.array(stepSchema).optional(),
  repeatLast: z.boolean().optional(),
  chunking: chunkingSchema.optional(),
});

function toIssues(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({
    path: issue.path
      .map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`))
      .join(''),
    message: issue.message,
  }));
}

/** Validate an untrusted script (a JSON file, a request header); throws {@link MockScriptError}. */
export function parseMockScript(input: unknown, source = 'script'): MockScript {
  const result = scriptSchema.safeParse(input);
  if (!result.success) throw new MockScriptError(source, toIssues(result.error));
  return result.data as MockScript;
}

/** Validate one fault (e.g. from the `x-boxagnts-mock-fault` header); throws {@link MockScriptError}. */
export function parseMockFault(input: unknown, source = 'fault'): MockFault {
  const result = faultSchema.safeParse(input);
  if (!result.success) throw new MockScriptError(source, toIssues(result.error));
  return result.data as MockFault;
}
