import { describe, expect, it } from 'vitest';
import { toChatToolCallId } from '../adapters/openai-chat/openai-chat-tool-call-id.js';
import type { AssistantMessage, Message } from '../spec/message.js';
import {
  IMAGE_PLACEHOLDER,
  PORTABLE_TOOL_CALL_ID_RULES,
  type TransferHistoryOptions,
  transferHistory,
} from './transfer-history.js';

const png = { type: 'base64' as const, data: 'iVBORw0KGgo=', mediaType: 'image/png' };

const anthropic = { adapter: 'anthropic-messages', providerId: 'anthropic' };
const deepseek = { adapter: 'openai-chat', providerId: 'deepseek' };

/** A finished turn, then an unfinished tool turn waiting for its result. */
function conversation(): Message[] {
  return [
    { role: 'system', content: 'Be terse.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'image', source: png },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'A greeting.', signature: 'sig-old' },
        { type: 'text', text: 'Hello.' },
      ],
    },
    { role: 'user', content: 'Read config.toml' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Read it first.', signature: 'sig-current' },
        { type: 'redacted_thinking', data: 'opaque-bytes' },
        { type: 'thinking', thinking: '', signature: 'sig-only' },
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 'functions.read_file:0', name: 'read_file', input: { path: 'config.toml' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 'functions.read_file:0',
          content: [
            { type: 'text', text: 'port = 8000' },
            { type: 'image', source: png },
          ],
        },
      ],
    },
  ];
}

function move(messages: Message[], options: Partial<TransferHistoryOptions> = {}) {
  return transferHistory(messages, { from: anthropic, to: deepseek, ...options });
}

describe('transferHistory', () => {
  it('leaves a history for the same provider as it is (images aside) and never mutates the input', () => {
    const messages = conversation();
    const before = JSON.stringify(messages);
    const same = transferHistory(messages, { from: anthropic, to: anthropic });
    expect(same.messages).toEqual(messages);
    expect(same.toolCallIds.size).toBe(0);
    const blind = transferHistory(messages, { from: anthropic, to: anthropic, vision: false });
    expect(JSON.stringify(blind.messages)).not.toContain('iVBORw0KGgo=');
    expect(JSON.stringify(messages)).toBe(before);
  });

  it('turns the unfinished turn thinking into text and drops finished-turn, redacted and signature-only thinking', () => {
    const { messages } = move(conversation());
    expect(messages[2]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] });
    const current = messages[4] as AssistantMessage;
    expect(current.content.map((block) => block.type)).toEqual(['text', 'text', 'tool_use']);
    expect(current.content[0]).toEqual({ type: 'text', text: 'Read it first.\n\n' });
    const serialised = JSON.stringify(messages);
    for (const secret of ['sig-old', 'sig-current', 'sig-only', 'opaque-bytes'])
      expect(serialised).not.toContain(secret);
  });

  it('renames ids the target would refuse, the same way on the call and its result, and reports the mapping', () => {
    const { messages, toolCallIds } = move(conversation());
    const renamed = toolCallIds.get('functions.read_file:0');
    expect(renamed).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    const call = (messages[4] as AssistantMessage).content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ type: 'tool_use', id: renamed, name: 'read_file' });
    expect(messages[5]).toMatchObject({ content: [{ type: 'tool_result', toolUseId: renamed }] });
  });

  it('keeps valid ids and keeps distinct ids distinct when a renamed one would collide', () => {
    const collision = toChatToolCallId('a.b', PORTABLE_TOOL_CALL_ID_RULES);
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: collision, name: 'x', input: {} },
          { type: 'tool_use', id: 'a.b', name: 'x', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: collision, content: '1' },
          { type: 'tool_result', toolUseId: 'a.b', content: '2' },
        ],
      },
    ];
    const { messages: moved, toolCallIds } = move(messages);
    const ids = (moved[1] as AssistantMessage).content.map((block) => (block.type === 'tool_use' ? block.id : ''));
    expect(ids[0]).toBe(collision);
    expect(ids[1]).not.toBe(collision);
    expect(toolCallIds.get('a.b')).toBe(ids[1]);
    expect(moved[2]).toMatchObject({ content: [{ toolUseId: ids[0] }, { toolUseId: ids[1] }] });
  });

  it('applies stricter id rules when the target has them (Mistral: exactly nine alphanumerics)', () => {
    const { toolCallIds } = move(conversation(), { toolCallIdRules: { allowed: /[a-zA-Z0-9]/, maxLength: 16 } });
    expect(toolCallIds.get('functions.read_file:0')).toMatch(/^[a-zA-Z0-9]{1,16}$/);
    const mistral = move(conversation(), { toolCallIdRules: { allowed: /[a-zA-Z0-9]/, maxLength: 9, exactLength: 9 } });
    expect(mistral.toolCallIds.get('functions.read_file:0')).toMatch(/^[a-zA-Z0-9]{9}$/);
  });

  it('replaces images (also in tool results) and documents with placeholders for a model that cannot read them', () => {
    const messages: Message[] = [
      ...conversation(),
      {
        role: 'user',
        content: [{ type: 'document', title: 'spec.pdf', source: { type: 'url', url: 'https://x/s.pdf' } }],
      },
    ];
    const { messages: moved } = move(messages, { vision: false, documents: false });
    expect(moved[1]).toMatchObject({
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'text', text: IMAGE_PLACEHOLDER },
      ],
    });
    expect(moved[5]).toMatchObject({
      content: [
        {
          content: [
            { type: 'text', text: 'port = 8000' },
            { type: 'text', text: IMAGE_PLACEHOLDER },
          ],
        },
      ],
    });
    expect(moved[6]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '[A document "spec.pdf" was here; the current model cannot read documents.]' }],
    });
    const kept = move(messages).messages;
    expect(kept[1]).toMatchObject({ content: [{ type: 'text' }, { type: 'image' }] });
  });

  it('removes the source metadata when the target speaks the same protocol as another provider', () => {
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        providerMetadata: { gemini: { responseId: 'r1' }, custom: { note: 'kept' } },
        content: [
          { type: 'text', text: 'ok', providerMetadata: { gemini: { thoughtSignature: 'g-sig' } } },
          {
            type: 'tool_use',
            id: 'call_1',
            name: 'x',
            input: {},
            providerMetadata: { gemini: { functionCallId: 'f1' } },
          },
        ],
      },
    ];
    const { messages: moved } = transferHistory(messages, {
      from: { adapter: 'gemini', providerId: 'google' },
      to: { adapter: 'gemini', providerId: 'vertex' },
    });
    expect(moved[1]).toEqual({
      role: 'assistant',
      providerMetadata: { custom: { note: 'kept' } },
      content: [
        { type: 'text', text: 'ok' },
        { type: 'tool_use', id: 'call_1', name: 'x', input: {} },
      ],
    });
    const otherProtocol = transferHistory(messages, {
      from: { adapter: 'gemini', providerId: 'google' },
      to: deepseek,
    });
    expect(JSON.stringify(otherProtocol.messages)).toContain('g-sig');
  });

  it('treats the whole history as the unfinished turn when no user prompt precedes it', () => {
    const { messages } = move([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Plan.' },
          { type: 'tool_use', id: 't1', name: 'x', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: 'done' }] },
    ]);
    expect(messages[0]).toMatchObject({
      content: [
        { type: 'text', text: 'Plan.' },
        { type: 'tool_use', id: 't1' },
      ],
    });
  });
});
