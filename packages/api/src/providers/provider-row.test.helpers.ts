// Helpers of the provider-row tests. Named `*.test.*` so the package files leave it out of dist.
import { type MockScript, type MockServer, type RecordedRequest, startMockServer } from '@boxagnts/testkit';
import { expect } from 'vitest';
import { MessageAssembler } from '../shared/message-assembler.js';
import type { LlmProvider } from '../spec/provider.js';
import type { LlmRequest } from '../spec/request.js';
import type { AssistantResponse } from '../spec/response.js';
import type { StreamEvent } from '../spec/stream-event.js';

/** A fake key that must never show up in requests' recorded form, events, errors or listings. */
export const CANARY_KEY = 'canary-secret-do-not-leak-wxyz';

/** How the mock records {@link CANARY_KEY}: `***` plus its last four characters. */
export const MASKED_CANARY = '***wxyz';

/** The text every scripted turn answers with. */
export const HELLO_TEXT = 'Hello from the mock.';

const HELLO_SCRIPT: MockScript = { steps: [{ text: HELLO_TEXT, usage: { input: 21, output: 6 } }] };

const servers: MockServer[] = [];

/** Starts a mock server that answers one turn with {@link HELLO_TEXT} (closed by {@link closeMocks}). */
export async function startHelloMock(script: MockScript = HELLO_SCRIPT): Promise<MockServer> {
  const server = await startMockServer({ script });
  servers.push(server);
  return server;
}

/** Closes every mock started by {@link startHelloMock}; call it in `afterEach`. */
export async function closeMocks(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}

/**
 * The mock's URL with the path of a row's base URL kept (`https://api.mistral.ai/v1` ->
 * `http://127.0.0.1:<port>/v1`), so a test checks the full path the vendor would receive.
 */
export function mockBaseURL(mock: MockServer, rowBaseURL: string | undefined): string {
  const path = rowBaseURL === undefined ? '' : new URL(rowBaseURL).pathname.replace(/\/+$/, '');
  return `${mock.url}${path}`;
}

/** Streams one request and assembles the response from the events. */
export async function streamOnce(
  provider: LlmProvider,
  request: LlmRequest,
): Promise<{ events: StreamEvent[]; response: AssistantResponse }> {
  const events: StreamEvent[] = [];
  const assembler = new MessageAssembler();
  for await (const event of provider.streamMessage(request)) {
    events.push(event);
    assembler.push(event);
  }
  return { events, response: assembler.toResponse() };
}

/** A small request with a system prompt and a token limit, so body quirks show. */
export function helloRequest(model: string, extra: Partial<LlmRequest> = {}): LlmRequest {
  return {
    model,
    system: 'You are terse.',
    maxOutputTokens: 256,
    messages: [{ role: 'user', content: 'Hello' }],
    ...extra,
  };
}

/**
 * Asserts the stream ended well with {@link HELLO_TEXT} as the only text and, unless `usage` is
 * false, with output tokens counted.
 */
export function expectHelloResponse(
  events: readonly StreamEvent[],
  response: AssistantResponse,
  options: { usage?: boolean } = {},
): void {
  const terminal = events.at(-1);
  expect(terminal?.type, JSON.stringify(terminal)).toBe('message-end');
  const text = response.message.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('');
  expect(text).toBe(HELLO_TEXT);
  if (options.usage !== false) expect(response.usage.output.total).toBeGreaterThan(0);
}

/** The only request the mock received. */
export function onlyRequest(mock: MockServer): RecordedRequest {
  expect(mock.requests).toHaveLength(1);
  return mock.requests[0] as RecordedRequest;
}

/** Asserts the canary key appears nowhere in `values` (serialised, errors included). */
export function expectNoCanary(...values: unknown[]): void {
  for (const value of values) {
    const text =
      value instanceof Error
        ? `${value.message}\n${value.stack ?? ''}\n${JSON.stringify(value)}`
        : JSON.stringify(value, (_key, item) => (item instanceof Error ? { message: item.message } : item));
    expect(text ?? '').not.toContain(CANARY_KEY);
  }
}
