// The request contract every provider row of this folder is tested against. Named `*.test.*` so the
// package files leave it out of dist.
import { type MockServer, type MockTurn, type RecordedRequest, startMockServer } from '@boxagnts/testkit';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../spec/message.js';
import type { LlmProvider } from '../../spec/provider.js';
import type { LlmRequest } from '../../spec/request.js';
import { fixturesSkipReason, providerStreamsDir } from '../../test/fixtures.js';
import type { ProviderEntry } from '../provider-entry.js';
import type { ProviderOptions } from '../provider-options.js';
import { CANARY_KEY, expectNoCanary, MASKED_CANARY, mockBaseURL, streamOnce } from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';

/** The title of a test that replays a recorded stream: the skip reason where the recordings are absent. */
export function replayTitle(title: string): string {
  return providerStreamsDir === undefined ? `${title} (${fixturesSkipReason})` : title;
}

/** What a row's vendor documents, stated independently of the row so the test can fail. */
export interface RowContract {
  /** The model the requests name. */
  model: string;
  /** The full path the vendor receives, e.g. `/api/paas/v4/chat/completions`. */
  path: string;
  /** The header carrying the key: `authorization` (Bearer) or `x-api-key`. */
  authHeader: 'authorization' | 'x-api-key';
  /**
   * Fields of the streamed request body for {@link contractRequest} (`maxOutputTokens: 4096`,
   * `thinking: {type: 'enabled', budgetTokens: 2048}`), compared with `toMatchObject`.
   */
  streamedBody: Record<string, unknown>;
  /** Top-level body fields that must not be sent in the streamed request. */
  absentFields?: readonly string[];
  /** Headers besides auth that every request carries (lower-case names). */
  headers?: Readonly<Record<string, string>>;
  /**
   * How the reasoning of a tool-call turn goes back on the next request: as `reasoning_content` on
   * the assistant message (Chat Completions), as a `thinking` block (Anthropic Messages), or not at all.
   */
  reasoningEcho: 'reasoning_content' | 'thinking-block' | 'none';
}

const THINKING = 'The user wants the config; read it first.';
const TOOL_CALL_ID = 'call_row_contract_1';

/** The scripted tool turn: unsigned thinking, text, one tool call. */
export const TOOL_TURN: MockTurn = {
  content: [
    { type: 'thinking', thinking: THINKING },
    { type: 'text', text: 'Let me read it.' },
    { type: 'tool_call', id: TOOL_CALL_ID, name: 'read_file', input: { path: 'config.toml' } },
  ],
  usage: { input: 40, output: 20, reasoning: 8 },
};

const ANSWER_TURN: MockTurn = { text: 'The port is 8000.', usage: { input: 60, output: 6 } };

/** The request every contract test sends (plus the history for the second turn). */
export function contractRequest(model: string, messages?: Message[]): LlmRequest {
  return {
    model,
    system: 'You are terse.',
    maxOutputTokens: 4096,
    thinking: { type: 'enabled', budgetTokens: 2048 },
    messages: messages ?? [{ role: 'user', content: 'What is in config.toml?' }],
    tools: [
      {
        name: 'read_file',
        description: 'Read a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ],
  };
}

/** A provider made from `row` the way the registry makes it, with the canary key and no retries. */
export function providerFromRow(row: ProviderEntry, options: ProviderOptions = {}): LlmProvider {
  const registry = createProviderRegistry({ providers: [row], env: {} });
  return registry.createProvider({
    provider: row.id,
    apiKey: CANARY_KEY,
    retry: { maxRetries: 0 },
    stall: false,
    ...options,
  });
}

/** The parsed JSON body of the `index`-th request the mock received (failing the test when there is none). */
export function requestBody(mock: MockServer, index = 0): Record<string, unknown> {
  const request = mock.requests[index];
  expect(request, `request ${index} was not received`).toBeDefined();
  return (request?.body ?? {}) as Record<string, unknown>;
}

/** The messages of a recorded Chat Completions body. */
export function chatMessages(mock: MockServer, index = 0): Array<Record<string, unknown>> {
  return (requestBody(mock, index).messages ?? []) as Array<Record<string, unknown>>;
}

/** The assistant message of the recorded Chat Completions body, or undefined. */
function chatAssistant(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const messages = body.messages as Array<Record<string, unknown>>;
  return messages.find((message) => message.role === 'assistant');
}

/** Asserts how the second request carried the reasoning of the first turn. */
function expectReasoningEcho(request: RecordedRequest, echo: RowContract['reasoningEcho']): void {
  const body = request.body as Record<string, unknown>;
  if (echo === 'thinking-block') {
    const messages = body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const assistant = messages.find((message) => message.role === 'assistant');
    expect(assistant?.content[0]).toMatchObject({ type: 'thinking', thinking: THINKING });
    return;
  }
  const assistant = chatAssistant(body);
  expect(assistant?.tool_calls).toMatchObject([{ id: TOOL_CALL_ID, function: { name: 'read_file' } }]);
  if (echo === 'reasoning_content') expect(assistant?.reasoning_content).toBe(THINKING);
  else expect(assistant).not.toHaveProperty('reasoning_content');
}

/**
 * Registers the request tests of one provider row against the testkit mock: the path and masked
 * key of a streamed and a non-streamed request, the row's body quirks, parsing of thinking, text
 * and a tool call, the reasoning echo of the next turn, the key never leaking (also from a refused
 * key's error), and each regional base URL reached with the same path.
 */
export function describeRowContract(row: ProviderEntry, contract: RowContract): void {
  describe(`provider row ${row.id}`, () => {
    let mock: MockServer;
    let provider: LlmProvider;

    beforeAll(async () => {
      mock = await startMockServer();
    });
    afterAll(async () => {
      await mock.close();
    });
    beforeEach(() => {
      mock.clearRequests();
      provider = providerFromRow(row, { baseURL: mockBaseURL(mock, row.baseURL) });
    });

    it(`streams to ${contract.path} with the masked key and the row's body quirks, and parses the turn`, async () => {
      mock.setScript({ steps: [TOOL_TURN] });
      const { events, response } = await streamOnce(provider, contractRequest(contract.model));
      expect(events.at(-1)?.type, JSON.stringify(events.at(-1))).toBe('message-end');
      const request = mock.requests[0] as RecordedRequest;
      expect(request.path).toBe(contract.path);
      expect(request.stream).toBe(true);
      const expectedAuth = contract.authHeader === 'authorization' ? `Bearer ${MASKED_CANARY}` : MASKED_CANARY;
      expect(request.headers[contract.authHeader]).toBe(expectedAuth);
      const otherAuth = contract.authHeader === 'authorization' ? 'x-api-key' : 'authorization';
      expect(request.headers[otherAuth]).toBeUndefined();
      expect(request.headers).toMatchObject(contract.headers ?? {});
      expect(request.body).toMatchObject({ model: contract.model, ...contract.streamedBody });
      for (const field of contract.absentFields ?? []) expect(request.body).not.toHaveProperty(field);
      expect(response.message.content).toMatchObject([
        { type: 'thinking', thinking: THINKING },
        { type: 'text', text: 'Let me read it.' },
        { type: 'tool_use', name: 'read_file', input: { path: 'config.toml' } },
      ]);
      expect(response.finishReason.unified).toBe('tool-calls');
      // The mock streams Chat Completions usage only when asked with `stream_options`, as OpenAI does.
      const usageAsked = row.adapter !== 'openai-chat' || 'stream_options' in (request.body as object);
      expect(response.usage.output.total).toBe(usageAsked ? 20 : 0);
      expectNoCanary(events, request.rawBody, request.headers);
    });

    it(`sends the next turn with the reasoning echoed as ${contract.reasoningEcho}, not streamed, and parses it`, async () => {
      mock.setScript({ steps: [TOOL_TURN, ANSWER_TURN] });
      const first = await streamOnce(provider, contractRequest(contract.model));
      const assistant: AssistantMessage = first.response.message;
      const toolUse = assistant.content.find((block) => block.type === 'tool_use');
      const history: Message[] = [
        { role: 'user', content: 'What is in config.toml?' },
        assistant,
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: toolUse?.type === 'tool_use' ? toolUse.id : '', content: 'port = 8000' },
          ],
        },
      ];
      const response = await provider.createMessage(contractRequest(contract.model, history));
      const second = mock.requests[1] as RecordedRequest;
      expect(second.path).toBe(contract.path);
      expect(second.stream).toBe(false);
      expectReasoningEcho(second, contract.reasoningEcho);
      expect(response.message.content).toMatchObject([{ type: 'text', text: 'The port is 8000.' }]);
      expect(response.finishReason.unified).toBe('stop');
      expect(response.usage.output.total).toBe(6);
    });

    it('never shows the key: a refused key ends in an auth error without it', async () => {
      mock.setScript({ steps: [{ ...ANSWER_TURN, fault: { kind: 'http_error', error: 'auth' } }] });
      const { events } = await streamOnce(provider, contractRequest(contract.model));
      const terminal = events.at(-1);
      expect(terminal?.type === 'error' ? terminal.error.reason : terminal?.type).toBe('auth');
      expectNoCanary(events, terminal?.type === 'error' ? terminal.error : undefined, mock.requests);
    });

    // Only rows with regional endpoints have this test (a row without regions has nothing to check).
    const regions = Object.entries(row.regionalBaseURLs ?? {});
    if (regions.length === 0) return;
    it('reaches each regional base URL with the same request path, no network involved', async () => {
      expect(Object.values(row.regionalBaseURLs ?? {})).toContain(row.baseURL);
      for (const [region, url] of regions) {
        const agent = new MockAgent();
        agent.disableNetConnect();
        const base = new URL(url);
        const suffix = contract.path.slice(new URL(row.baseURL ?? url).pathname.replace(/\/+$/, '').length);
        agent
          .get(base.origin)
          .intercept({ path: `${base.pathname.replace(/\/+$/, '')}${suffix}`, method: 'POST' })
          .reply(200, minimalReply(row), { headers: { 'content-type': 'application/json' } });
        const regional = providerFromRow(row, { region, dispatcher: agent });
        const response = await regional.createMessage({
          model: contract.model,
          messages: [{ role: 'user', content: 'Hi' }],
        });
        expect(response.message.content, region).toMatchObject([{ type: 'text', text: 'ok' }]);
        agent.assertNoPendingInterceptors();
        await agent.close();
      }
    });
  });
}

/** The smallest valid non-streamed answer in the row's protocol. */
function minimalReply(row: ProviderEntry): Record<string, unknown> {
  if (row.adapter === 'anthropic-messages') {
    return {
      id: 'msg_region',
      type: 'message',
      role: 'assistant',
      model: 'regional',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: 1 },
    };
  }
  return {
    id: 'chatcmpl-region',
    object: 'chat.completion',
    created: 0,
    model: 'regional',
    choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}
