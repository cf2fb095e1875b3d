import type { ToolContext } from '../tool-context.js';

/** A tool context for tests: a temp root, a fresh signal, fixed ids; override what a test needs. */
export function testContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    root: overrides.root ?? process.cwd(),
    signal: overrides.signal ?? new AbortController().signal,
    sessionId: 'session-test',
    turnId: 'turn-1',
    toolCallId: 'call_test_1',
    ...overrides,
  };
}
