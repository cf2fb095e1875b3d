import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { describeIssue, usageSchema } from './entry-schema.js';
import type { StoreBackend } from './store-backend.js';
import type { StoreDatabase } from './store-database.js';
import { StoreError, toStoreError } from './store-error.js';
import type { UsageReportRow, UsageStore } from './store-types.js';

const recordSchema = z.object({
  sessionId: z.string().min(1).max(200).optional(),
  provider: z.string().min(1).max(200),
  model: z.string().min(1).max(200),
  agent: z.string().max(200).optional(),
  subAgent: z.string().max(200).optional(),
  purpose: z
    .string()
    .regex(/^[a-z0-9_-]{1,64}$/, 'is 1-64 lowercase letters, digits, "-" or "_"')
    .optional(),
  usage: usageSchema,
  costUsd: z.number().nonnegative().finite().optional(),
  createdAt: z.number().int().nonnegative().optional(),
});

const GROUP_COLUMNS = {
  day: 'day',
  model: 'model',
  provider: 'provider',
  agent: 'agent',
  session: 'session_id',
  purpose: 'purpose',
  subAgent: 'sub_agent',
} as const;

/** The UTC day `YYYY-MM-DD` of an epoch-ms time, the key of a report by day. */
export function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

interface ReportSqlRow {
  key: string | null;
  calls: number | string;
  input_tokens: number | string | null;
  output_tokens: number | string | null;
  cache_read_tokens: number | string | null;
  cache_write_tokens: number | string | null;
  reasoning_tokens: number | string | null;
  cost_usd: number | string | null;
}

function reportRow(row: ReportSqlRow): UsageReportRow {
  return {
    key: row.key ?? '',
    calls: Number(row.calls),
    inputTokens: Number(row.input_tokens ?? 0),
    outputTokens: Number(row.output_tokens ?? 0),
    cacheReadTokens: Number(row.cache_read_tokens ?? 0),
    cacheWriteTokens: Number(row.cache_write_tokens ?? 0),
    reasoningTokens: Number(row.reasoning_tokens ?? 0),
    costUsd: Number(row.cost_usd ?? 0),
  };
}

async function report(
  database: Kysely<StoreDatabase>,
  groupBy: keyof typeof GROUP_COLUMNS,
  since: number | undefined,
  until: number | undefined,
): Promise<UsageReportRow[]> {
  const column = sql.ref(GROUP_COLUMNS[groupBy]);
  const key = sql<string>`COALESCE(${column}, '')`;
  const rows = await database
    .selectFrom('usage_records')
    .select([
      key.as('key'),
      sql<number>`COUNT(*)`.as('calls'),
      sql<number>`SUM(input_tokens)`.as('input_tokens'),
      sql<number>`SUM(output_tokens)`.as('output_tokens'),
      sql<number>`SUM(cache_read_tokens)`.as('cache_read_tokens'),
      sql<number>`SUM(cache_write_tokens)`.as('cache_write_tokens'),
      sql<number>`SUM(reasoning_tokens)`.as('reasoning_tokens'),
      sql<number | null>`SUM(cost_usd)`.as('cost_usd'),
    ])
    .$if(since !== undefined, (query) => query.where('created_at', '>=', since as number))
    .$if(until !== undefined, (query) => query.where('created_at', '<', until as number))
    .groupBy(key)
    .orderBy(key)
    .execute();
  return rows.map((row) => reportRow(row as ReportSqlRow));
}

/**
 * Usage and cost records over one backend: one row per model call, reports grouped by UTC day,
 * model, provider, agent, session, purpose or sub-agent (a missing value groups under the key `''`).
 */
export function createUsageStore(backend: StoreBackend): UsageStore {
  return {
    async record(record) {
      const parsed = recordSchema.safeParse(record);
      if (!parsed.success) {
        throw new StoreError({
          reason: 'invalid-input',
          message: `The usage record is not valid (${describeIssue(parsed.error)}); nothing was recorded. Fix that field.`,
        });
      }
      const value = parsed.data;
      const createdAt = value.createdAt ?? Date.now();
      try {
        await backend.write((transaction) =>
          transaction
            .insertInto('usage_records')
            .values({
              session_id: value.sessionId ?? null,
              provider: value.provider,
              model: value.model,
              agent: value.agent ?? null,
              sub_agent: value.subAgent ?? null,
              input_tokens: value.usage.input.total,
              input_no_cache_tokens: value.usage.input.noCache,
              cache_read_tokens: value.usage.input.cacheRead,
              cache_write_tokens: value.usage.input.cacheWrite,
              output_tokens: value.usage.output.total,
              output_text_tokens: value.usage.output.text,
              reasoning_tokens: value.usage.output.reasoning,
              cost_usd: value.costUsd ?? null,
              created_at: createdAt,
              day: utcDay(createdAt),
              purpose: value.purpose ?? null,
            })
            .execute(),
        );
      } catch (error) {
        throw toStoreError(error, 'Recording usage');
      }
    },

    async report(groupBy, options = {}) {
      if (!Object.hasOwn(GROUP_COLUMNS, groupBy)) {
        throw new StoreError({
          reason: 'invalid-input',
          message: `Usage reports group by ${Object.keys(GROUP_COLUMNS).join(', ')}; ${JSON.stringify(groupBy)} is none of them.`,
        });
      }
      try {
        return await report(backend.database, groupBy, options.since, options.until);
      } catch (error) {
        throw toStoreError(error, `Reporting usage by ${groupBy}`);
      }
    },
  };
}
