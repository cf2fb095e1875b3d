import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockTurn } from '../script/types.js';
import { type MockServer, startMockServer } from './mock-server.js';

// The stream faults as the official SDKs see them: a reset and a truncation are failures of the
// stream (never a silent success), and a stall trips the client's idle timer.

const turn: MockTurn = {
  text: 'A reply long enough to be cut in the middle of its stream, several deltas long.',
  chunking: { textDelta: 6 },
};

let mock: MockServer;
const agent = new Agent({ bodyTimeout: 300 });
const idleFetch = ((input: string | URL | Request, init?: RequestInit) =>
  undiciFetch(input as Parameters<typeof undiciFetch>[0], {
    ...(init as Parameters<typeof undiciFetch>[1]),
    dispatcher: agent,
  })) as unknown as typeof fetch;

beforeAll(async () => {
  mock = await startMockServer({ script: { steps: [turn], repeatLast: true } });
});

afterAll(async () => {
  await mock.close();
  await agent.close();
});

function anthropic() {
  return new Anthropic({ baseURL: mock.url, apiKey: 'test-key', maxRetries: 0, fetch: idleFetch });
}

function openai() {
  return new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'test-key', maxRetries: 0, fetch: idleFetch });
}

const params = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }] };

async function drainChat(
  faultAfter: Parameters<MockServer['injectFault']>[0],
): Promise<{ text: string; error: unknown }> {
  mock.injectFault(faultAfter);
  let text = '';
  try {
    const stream = await openai().chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    return { text, error: undefined };
  } catch (error) {
    return { text, error };
  }
}

describe('stream faults through @anthropic-ai/sdk', () => {
  it('a reset mid-stream makes the stream fail after the first text', async () => {
    const whole = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ ...params, stream: true }),
    }).then((response) => response.arrayBuffer());
    mock.injectFault({ kind: 'reset', afterBytes: Math.floor(whole.byteLength * 0.6) });
    const stream = anthropic().messages.stream(params);
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(text.length).toBeGreaterThan(0);
    expect(turn.text?.startsWith(text)).toBe(true);
  });

  it('a truncated stream has no final message', async () => {
    mock.injectFault({ kind: 'truncate' });
    const stream = anthropic().messages.stream(params);
    const result = await stream.finalMessage().then(
      (message) => message.stop_reason,
      (error: Error) => error,
    );
    // Without message_delta the SDK never learns a stop reason: no complete message.
    expect(result instanceof Error || result === null).toBe(true);
  });

  it('a stall after the headers trips the idle timer', async () => {
    mock.injectFault({ kind: 'stall', afterEvents: 2 });
    await expect(anthropic().messages.stream(params).finalMessage()).rejects.toThrow();
  });

  it('the mock still answers normally afterwards', async () => {
    const message = await anthropic().messages.create(params);
    expect(message.content[0]).toMatchObject({ type: 'text', text: turn.text });
  });
});

describe('stream faults through openai', () => {
  it('a reset mid-stream is an error after part of the text', async () => {
    const { text, error } = await drainChat({ kind: 'reset', afterBytes: 600 });
    expect(error).toBeInstanceOf(Error);
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(turn.text?.length ?? 0);
  });

  it('a truncated stream ends without a finish reason', async () => {
    mock.injectFault({ kind: 'truncate' });
    const stream = await openai().chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const finishReasons: Array<string | null | undefined> = [];
    let text = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finishReasons.push(chunk.choices[0]?.finish_reason);
    }
    expect(text).toBe(turn.text);
    expect(finishReasons.filter(Boolean)).toEqual([]);
  });

  it('a stall trips the idle timer', async () => {
    const { error } = await drainChat({ kind: 'stall', afterEvents: 1 });
    expect(error).toBeInstanceOf(Error);
  });

  it('an overload before the stream is the SDK status error', async () => {
    const { error } = await drainChat({ kind: 'http_error', error: 'overloaded' });
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
  });
});
