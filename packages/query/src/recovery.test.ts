import { createOpenAIChatProvider } from '@boxagnts/api';
import { defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { QueryEvent } from './events.js';
import { MAX_TOKENS_RESUME_PROMPT } from './recovery/resume-prompt.js';
import { collect, type Harness, startHarness } from './test/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 20 };
type Body = { model: string; messages: Array<{ role: string; content: unknown }> };
const body = (h: Harness, index: number) => h.mock.requests[index]?.body as Body;
const statuses = (events: QueryEvent[]) =>
  events.filter((event) => event.type === 'status').map((event) => (event.type === 'status' ? event.kind : ''));

describe('recovery', () => {
  it('resumes a reply cut at max_tokens: keeps the partial text, asks to continue, ends normally', async () => {
    harness = await startHarness({
      steps: [
        { text: 'The first half of a long answer, cut', stopReason: 'max_tokens', usage },
        { text: ' off here and finished now.', usage },
      ],
    });
    const { events, outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Write a lot.' }],
      toolContext: { root: harness.root, sessionId: 'r1' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(statuses(events)).toContain('resume-after-max-tokens');
    const second = body(harness, 1);
    expect(JSON.stringify(second.messages.at(-2))).toContain('The first half of a long answer, cut');
    expect(JSON.stringify(second.messages.at(-1))).toContain('Continue exactly where you stopped');
    expect(outcome.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(outcome.messages[2]?.content).toBe(MAX_TOKENS_RESUME_PROMPT);
  });

  it('never runs tool calls from a reply cut at max_tokens, and gives up after the configured resumes', async () => {
    let ran = 0;
    const write = defineTool({
      name: 'write_file',
      description: 'Write.',
      inputSchema: z.object({ path: z.string() }),
      permission: 'write',
      execute: async () => {
        ran++;
        return textResult('ok');
      },
    });
    harness = await startHarness({
      steps: [
        {
          content: [
            { type: 'text', text: 'Writing' },
            { type: 'tool_call', name: 'write_file', input: { path: 'a' } },
          ],
          stopReason: 'max_tokens',
          usage,
        },
      ],
      repeatLast: true,
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Go' }],
      tools: [write],
      toolContext: { root: harness.root, sessionId: 'r2' },
      config: { model: 'claude-sonnet-4-6', recovery: { maxTokensResumes: 2 } },
    });
    expect(ran).toBe(0);
    expect(outcome.reason).toBe('error');
    expect(outcome.reason === 'error' && outcome.error).toContain('max_tokens');
    expect(outcome.turns).toBe(3);
    for (const message of outcome.messages) {
      if (message.role === 'assistant') expect(message.content.some((block) => block.type === 'tool_use')).toBe(false);
    }
  });

  it('switches to the fallback model when the model stays overloaded, and reports it', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { model: 'primary-model' },
          steps: [{ fault: { kind: 'http_error', error: 'overloaded' } }],
          repeatLast: true,
        },
        { match: { model: 'backup-model' }, steps: [{ text: 'Answered by the backup.', usage }] },
      ],
    });
    const { events, outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Hi' }],
      toolContext: { root: harness.root, sessionId: 'r3' },
      config: { model: 'primary-model', fallbackModels: [{ model: 'backup-model' }] },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.text).toBe('Answered by the backup.');
    expect(statuses(events)).toContain('fallback');
    expect(events.some((event) => event.type === 'recoverable-error' && event.action === 'fallback')).toBe(true);
    expect(harness.mock.requests.map((request) => (request.body as Body).model)).toEqual([
      'primary-model',
      'backup-model',
    ]);
    expect(Object.keys(outcome.usage.byModel)).toEqual(['backup-model']);
  });

  it('falls back across vendors, moving the history to the other protocol', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { protocol: 'anthropic', contains: 'second question' },
          steps: [{ fault: { kind: 'http_error', error: 'overloaded' } }],
          repeatLast: true,
        },
        {
          match: { protocol: 'anthropic' },
          steps: [
            {
              content: [
                { type: 'thinking', thinking: 'hmm', signature: 'sig' },
                { type: 'tool_call', name: 'lookup', input: { key: 'a' } },
              ],
              usage,
            },
            { text: 'First answer.', usage },
          ],
        },
        { match: { protocol: 'openai-chat' }, steps: [{ text: 'OpenAI took over.', usage }] },
      ],
    });
    const openai = createOpenAIChatProvider({
      baseURL: `${harness.mock.url}/v1`,
      apiKey: 'k',
      retry: { maxRetries: 0 },
    });
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look up.',
      inputSchema: z.object({ key: z.string() }),
      permission: 'read-only',
      execute: async () => textResult('value'),
    });
    const first = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'first question' }],
      tools: [lookup],
      toolContext: { root: harness.root, sessionId: 'r4' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(first.outcome.reason).toBe('end_turn');
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [...first.outcome.messages, { role: 'user', content: 'second question' }],
      tools: [lookup],
      toolContext: { root: harness.root, sessionId: 'r4' },
      config: {
        model: 'claude-sonnet-4-6',
        fallbackModels: [{ model: 'gpt-4.1', provider: openai, adapter: 'openai-chat' }],
      },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.text).toBe('OpenAI took over.');
    const last = harness.mock.requests.at(-1);
    expect(last?.path).toContain('/chat/completions');
    const sent = JSON.stringify((last?.body as Body | undefined)?.messages);
    expect(sent).toContain('"tool_call_id"');
    expect(sent).toContain('first question');
    // Anthropic's signed thinking does not travel to another vendor as a signature.
    expect(sent).not.toContain('"sig"');
  });

  it('retries a turn that stalls after partial output, discarding the partial reply', async () => {
    harness = await startHarness(
      {
        steps: [
          { text: 'This reply will stall midway through', fault: { kind: 'stall', afterEvents: 5 } },
          { text: 'A complete reply.', usage },
        ],
      },
      'anthropic',
      { stall: { firstByteTimeoutMs: 2000, idleTimeoutMs: 300 } },
    );
    const { events, outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Hi' }],
      toolContext: { root: harness.root, sessionId: 'r5' },
      config: { model: 'claude-sonnet-4-6' },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(outcome.text).toBe('A complete reply.');
    expect(statuses(events)).toContain('retry-turn');
    expect(outcome.messages.filter((message) => message.role === 'assistant')).toHaveLength(1);
    expect(events.some((event) => event.type === 'recoverable-error' && event.action === 'retry-turn')).toBe(true);
    // Partial text was streamed before the stall, and the retry's reply replaced it.
    expect(events.some((event) => event.type === 'text-delta' && event.turn === 1)).toBe(true);
    expect(events.find((event) => event.type === 'status' && event.kind === 'retry-turn')).toMatchObject({
      message: expect.stringContaining('broke off'),
    });
  });

  it('compacts and retries once when the provider reports a context overflow', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { contains: 'Summarise this conversation' },
          steps: [{ text: 'SUMMARY: the user is refactoring module X.', usage }],
        },
        {
          match: { protocol: 'anthropic' },
          steps: [
            { fault: { kind: 'http_error', error: 'context_overflow' } },
            { text: 'Done after compaction.', usage },
          ],
        },
      ],
    });
    const history = [];
    for (let index = 0; index < 6; index++) {
      history.push({ role: 'user' as const, content: `request ${index} ${'x'.repeat(200)}` });
      history.push({ role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${index}` }] });
    }
    history.push({ role: 'user' as const, content: 'final request' });
    const { events, outcome } = await collect({
      provider: harness.provider,
      messages: history,
      toolContext: { root: harness.root, sessionId: 'r6' },
      config: { model: 'claude-sonnet-4-6', compaction: { keepRecentTurns: 2 } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(events.some((event) => event.type === 'recoverable-error' && event.action === 'compact')).toBe(true);
    const final = JSON.stringify((harness.mock.requests.at(-1)?.body as Body | undefined)?.messages);
    expect(final).toContain('SUMMARY: the user is refactoring module X.');
    expect(final).toContain('final request');
    expect(final).not.toContain('answer 0');
  });

  it('ends with context_overflow instead of compacting when compaction is off', async () => {
    harness = await startHarness({
      steps: [{ fault: { kind: 'http_error', error: 'context_overflow' } }],
      repeatLast: true,
    });
    const { outcome } = await collect({
      provider: harness.provider,
      messages: [{ role: 'user', content: 'Hi' }],
      toolContext: { root: harness.root, sessionId: 'r7' },
      config: { model: 'claude-sonnet-4-6', compaction: { enabled: false } },
    });
    expect(outcome.reason).toBe('context_overflow');
    expect(harness.mock.requests).toHaveLength(1);
  });
});
