import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeEach } from 'vitest';
import type { RetryOptions } from '../shared/retry-policy.js';
import type { StallOptions } from '../shared/stall-timeouts.js';
import type { LlmError } from '../spec/llm-error.js';
import type { StreamEvent } from '../spec/stream-event.js';

// Setup shared by the per-adapter fault tests: one mock server per file, and provider settings that
// retry twice without waiting (recording the waits asked for) and give up on a silent stream (or one
// of nothing but keep-alives) fast.

/** What a fault test file works with. */
export interface FaultTestSetup {
  mock: MockServer;
  /** The waits the retry policy asked for since the test began. */
  sleeps: number[];
  /** Retry and stall settings to spread into an adapter's settings. */
  fast: { retry: RetryOptions; stall: StallOptions };
}

/**
 * Starts the mock server for the calling test file (await it at the top level): closed after all
 * tests, its request log and the recorded waits cleared before each.
 */
export async function startFaultTestSetup(): Promise<FaultTestSetup> {
  const mock = await startMockServer();
  const sleeps: number[] = [];
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    sleeps.length = 0;
    mock.clearRequests();
  });
  const fast = {
    retry: {
      maxRetries: 2,
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
    },
    // Keep-alives restart the 300 ms waits; only keep-alives for 500 ms is a stall of its own.
    stall: { firstByteTimeoutMs: 300, idleTimeoutMs: 300, keepAliveTimeoutMs: 500 },
  };
  return { mock, sleeps, fast };
}

/** The error of a stream's terminal event, or undefined when it ended otherwise. */
export function lastError(events: readonly StreamEvent[]): LlmError | undefined {
  const last = events.at(-1);
  return last?.type === 'error' ? last.error : undefined;
}
