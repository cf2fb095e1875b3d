import { createAnthropicMessagesProvider } from '@boxagnts/api';
import type { QueryConfig, QueryOptions } from '../config.js';
import { EventBuffer } from '../event-buffer.js';
import type { QueryEvent } from '../events.js';
import type { BudgetLedger } from '../limits/budget-ledger.js';
import { NEVER_ABORTED } from '../run-signal.js';
import { createRunState, type RunState } from '../run-state.js';
import { Semaphore } from '../subagents/semaphore.js';

/** A run state for unit tests of one mechanism (its provider is never called). */
export function testRunState(
  config: Partial<QueryConfig> = {},
  extra: { signal?: AbortSignal; parentLedger?: BudgetLedger; options?: Partial<QueryOptions> } = {},
): RunState {
  const provider = createAnthropicMessagesProvider({ baseURL: 'http://127.0.0.1:9', apiKey: 'unused' });
  const options: QueryOptions = {
    provider,
    messages: [{ role: 'user', content: 'task' }],
    toolContext: { root: process.cwd(), sessionId: 'unit' },
    config: { model: 'claude-sonnet-4-6', ...config },
    ...extra.options,
  };
  return createRunState(
    options,
    { depth: 0, semaphore: new Semaphore(1), turns: { count: 0 } },
    extra.parentLedger ? { parentLedger: extra.parentLedger } : {},
    extra.signal ?? NEVER_ABORTED,
    new EventBuffer<QueryEvent>(),
  );
}
