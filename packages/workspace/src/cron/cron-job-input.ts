import { z } from 'zod';
import { DEFAULT_CRON_TIMEOUT_MS } from '../store/schema-v5.js';
import { CronError } from './cron-error.js';
import type { CronCatchUpPolicy, CronJobChanges, CronJobInput, CronOverlapPolicy } from './cron-types.js';

/** Longest timeout a job may set: one week. */
export const MAX_CRON_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f]/;

const fields = {
  name: z
    .string()
    .trim()
    .min(1, 'give the job a name')
    .max(200, 'at most 200 characters')
    .refine((name) => !CONTROL.test(name), 'no control characters'),
  description: z.string().max(2000, 'at most 2000 characters'),
  cron: z.string().max(200, 'at most 200 characters'),
  timezone: z.string().max(100, 'at most 100 characters'),
  prompt: z.string().min(1, 'give the prompt each run starts with').max(100_000, 'at most 100,000 characters'),
  agent: z.string().min(1).max(200, 'at most 200 characters'),
  model: z.string().min(1).max(200, 'at most 200 characters'),
  timeoutMs: z
    .number()
    .int('a whole number of milliseconds')
    .min(1000, 'at least 1000 ms')
    .max(MAX_CRON_TIMEOUT_MS, 'at most one week'),
  timeout: z
    .number()
    .int('a whole number of seconds (BoxAgnts counts this timeout in seconds)')
    .min(1, 'at least 1 second')
    .max(MAX_CRON_TIMEOUT_MS / 1000, 'at most one week'),
  budgetUsd: z.number().positive('more than 0').max(1_000_000),
  enabled: z.boolean(),
  overlap: z.enum(['skip', 'allow', 'queue'] satisfies CronOverlapPolicy[]),
  catchUp: z.enum(['skip', 'run-once'] satisfies CronCatchUpPolicy[]),
};

// BoxAgnts writes absent options as null (serde's Option), so null means "not given" here.
const optional = <T extends z.ZodType>(schema: T) => schema.nullish();

const inputSchema = z
  .object({
    id: optional(
      z
        .string()
        .regex(
          /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/,
          'letters, digits, ".", "_" or "-", at most 128, not starting with a sign',
        ),
    ),
    name: fields.name,
    description: optional(fields.description),
    cron: fields.cron,
    timezone: optional(fields.timezone),
    prompt: fields.prompt,
    agent: optional(fields.agent),
    model: optional(fields.model),
    timeoutMs: optional(fields.timeoutMs),
    timeout: optional(fields.timeout),
    budgetUsd: optional(fields.budgetUsd),
    enabled: optional(fields.enabled),
    overlap: optional(fields.overlap),
    catchUp: optional(fields.catchUp),
  })
  .strict();

const changesSchema = z
  .object({
    name: fields.name,
    description: fields.description,
    cron: fields.cron,
    timezone: fields.timezone,
    prompt: fields.prompt,
    agent: fields.agent.nullable(),
    model: fields.model.nullable(),
    timeoutMs: fields.timeoutMs,
    timeout: fields.timeout,
    budgetUsd: fields.budgetUsd.nullable(),
    enabled: fields.enabled,
    overlap: fields.overlap,
    catchUp: fields.catchUp,
  })
  .partial()
  .strict();

function refusal(error: z.ZodError, doing: string): CronError {
  const issue = error.issues[0];
  const path = issue === undefined ? '' : issue.path.map(String).join('.');
  if (issue?.code === 'unrecognized_keys') {
    const keys = (issue as { keys?: string[] }).keys ?? [];
    return new CronError({
      reason: 'invalid-job',
      field: keys[0],
      message: `${doing}: unknown field${keys.length === 1 ? '' : 's'} ${keys.map((key) => JSON.stringify(key)).join(', ')}; the fields are name, description, cron, timezone, prompt, agent, model, timeoutMs (or timeout in seconds), budgetUsd, enabled, overlap (skip|allow|queue) and catchUp (skip|run-once).`,
    });
  }
  return new CronError({
    reason: 'invalid-job',
    ...(path === '' ? {} : { field: path }),
    message: `${doing}: ${path === '' ? 'the job' : path} is wrong (${issue?.message ?? 'invalid value'}); fix that field.`,
  });
}

function timeoutOf(timeoutMs: number | null | undefined, timeout: number | null | undefined): number | undefined {
  if (timeoutMs != null && timeout != null && timeoutMs !== timeout * 1000) {
    throw new CronError({
      reason: 'invalid-job',
      field: 'timeout',
      message: `timeoutMs (${timeoutMs} ms) and timeout (${timeout} s) disagree: give one of them.`,
    });
  }
  if (timeoutMs != null) return timeoutMs;
  if (timeout != null) return timeout * 1000;
  return undefined;
}

/** A validated new job, defaults filled in (the expression and zone are checked by the store). */
export interface ValidCronJobInput {
  id: string | undefined;
  name: string;
  description: string;
  cron: string;
  timezone: string;
  prompt: string;
  agent: string | undefined;
  model: string | undefined;
  timeoutMs: number;
  budgetUsd: number | undefined;
  enabled: boolean;
  overlap: CronOverlapPolicy;
  catchUp: CronCatchUpPolicy;
}

/** Validates what `create` got, in our format or BoxAgnts'. */
export function validateJobInput(input: CronJobInput): ValidCronJobInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new CronError({ reason: 'invalid-job', message: 'A cron job is an object with name, cron and prompt.' });
  }
  const parsed = inputSchema.safeParse(input);
  if (!parsed.success) throw refusal(parsed.error, 'Cannot create the cron job');
  const job = parsed.data;
  return {
    id: job.id ?? undefined,
    name: job.name,
    description: job.description ?? '',
    cron: job.cron,
    timezone: job.timezone ?? 'UTC',
    prompt: job.prompt,
    agent: job.agent ?? undefined,
    model: job.model ?? undefined,
    timeoutMs: timeoutOf(job.timeoutMs, job.timeout) ?? DEFAULT_CRON_TIMEOUT_MS,
    budgetUsd: job.budgetUsd ?? undefined,
    enabled: job.enabled ?? true,
    overlap: job.overlap ?? 'skip',
    catchUp: job.catchUp ?? 'skip',
  };
}

/** Validated changes of `update`; `timeout` (seconds) folded into `timeoutMs`. */
export type ValidCronJobChanges = Omit<CronJobChanges, 'timeout'>;

/** Validates what `update` got. */
export function validateJobChanges(changes: CronJobChanges): ValidCronJobChanges {
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes)) {
    throw new CronError({ reason: 'invalid-job', message: 'Changes of a cron job are an object of fields to set.' });
  }
  const parsed = changesSchema.safeParse(changes);
  if (!parsed.success) throw refusal(parsed.error, 'Cannot update the cron job');
  const { timeout, timeoutMs, ...rest } = parsed.data;
  const resolved = timeoutOf(timeoutMs, timeout);
  return { ...rest, ...(resolved === undefined ? {} : { timeoutMs: resolved }) } as ValidCronJobChanges;
}
