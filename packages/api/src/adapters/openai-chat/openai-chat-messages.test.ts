import { describe, expect, it } from 'vitest';
import type { Message } from '../../spec/message.js';
import { convertMessages } from './openai-chat-messages.js';
import { DEFAULT_OPENAI_CHAT_COMPAT, type OpenAIChatCompat } from './openai-chat-settings.js';

const compat = (overrides: Partial<OpenAIChatCompat> = {}) => ({ ...DEFAULT_OPENAI_CHAT_COMPAT, ...overrides });

describe('convertMessages: system prompt', () => {
  const system = [
    { type: 'text' as const, text: 'Stable rules.' },
    { type: 'cache-boundary' as const },
    { type: 'text' as const, text: 'Today is Monday.' },
  ];

  it('joins the parts into one system message', () => {
    expect(convertMessages(system, [], compat())).toEqual([
      { role: 'system', content: 'Stable rules.\n\nToday is Monday.' },
    ]);
  });

  it('uses the developer role when supported', () => {
    expect(convertMessages('Be brief.', [], compat({ supportsDeveloperRole: true }))).toEqual([
      { role: 'developer', content: 'Be brief.' },
    ]);
  });

  it('marks the part before the cache boundary with cache_control when supported', () => {
    expect(convertMessages(system, [], compat({ supportsCacheControl: true }))).toEqual([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'Stable rules.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Today is Monday.' },
        ],
      },
    ]);
  });

  it('sends no system message for an empty prompt and keeps system messages of the history in place', () => {
    const messages: Message[] = [
      { role: 'user', content: 'a' },
      { role: 'system', content: [{ type: 'text', text: 'Switch to French.' }] },
    ];
    expect(convertMessages('', messages, compat())).toEqual([
      { role: 'user', content: 'a' },
      { role: 'system', content: 'Switch to French.' },
    ]);
  });
});

describe('convertMessages: user content', () => {
  it('sends text-only content as a string and drops empty text', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: '' },
          { type: 'text', text: 'two' },
        ],
      },
    ];
    expect(convertMessages(undefined, messages, compat())).toEqual([{ role: 'user', content: 'one\n\ntwo' }]);
  });

  it('sends images as image_url parts (base64 as a data URL, or the URL)', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare:' },
          { type: 'image', source: { type: 'base64', mediaType: 'image/jpeg', data: 'AAAA' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/b.png' } },
        ],
      },
    ];
    expect(convertMessages(undefined, messages, compat())).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare:' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
          { type: 'image_url', image_url: { url: 'https://example.com/b.png' } },
        ],
      },
    ]);
  });

  it('sends a base64 PDF as a file part, and a note where documents are not supported', () => {
    const pdf = {
      type: 'document' as const,
      source: { type: 'base64' as const, mediaType: 'application/pdf', data: 'JVBE' },
      title: 'spec.pdf',
    };
    const linked = { type: 'document' as const, source: { type: 'url' as const, url: 'https://example.com/a.pdf' } };
    expect(convertMessages(undefined, [{ role: 'user', content: [pdf, linked] }], compat())).toEqual([
      {
        role: 'user',
        content: [
          { type: 'file', file: { filename: 'spec.pdf', file_data: 'data:application/pdf;base64,JVBE' } },
          {
            type: 'text',
            text: '[A document "document.pdf" (https://example.com/a.pdf) was attached here, but this model cannot read documents.]',
          },
        ],
      },
    ]);
    expect(
      convertMessages(undefined, [{ role: 'user', content: [pdf] }], compat({ supportsDocuments: false })),
    ).toEqual([
      { role: 'user', content: '[A document "spec.pdf" was attached here, but this model cannot read documents.]' },
    ]);
  });

  it('sends each tool result as its own tool message, before the rest of the turn', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Here you go.' },
          { type: 'tool_result', toolUseId: 'call_1', content: 'result one' },
          {
            type: 'tool_result',
            toolUseId: 'call_2',
            content: [{ type: 'text', text: 'failed: no such file' }],
            isError: true,
          },
        ],
      },
    ];
    expect(convertMessages(undefined, messages, compat())).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'result one' },
      { role: 'tool', tool_call_id: 'call_2', content: 'failed: no such file' },
      { role: 'user', content: 'Here you go.' },
    ]);
  });

  it('moves images of a tool result to a user message after the tool messages, with a note in the result', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            toolUseId: 'shot',
            content: [
              { type: 'image', source: { type: 'url', url: 'https://example.com/s.png' } },
              { type: 'text', text: 'Screen captured.' },
            ],
          },
        ],
      },
    ];
    expect(convertMessages(undefined, messages, compat())).toEqual([
      {
        role: 'tool',
        tool_call_id: 'shot',
        content: '[Image 1 of this result is attached in the next user message.]\nScreen captured.',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images from the result of tool call shot:' },
          { type: 'image_url', image_url: { url: 'https://example.com/s.png' } },
        ],
      },
    ]);
  });
});

describe('convertMessages: assistant content', () => {
  const assistant: Message = {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Plan A.', signature: 'anthropic-sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Calling.' },
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'call_x', name: 'run', input: { cmd: 'ls' } },
      {
        type: 'tool_use',
        id: 'call_y',
        name: 'run',
        input: {},
        inputError: { kind: 'invalid-json', message: 'bad', rawInput: '{"cmd":' },
      },
    ],
  };

  it('sends text as content and calls as tool_calls, dropping thinking when not echoed', () => {
    expect(convertMessages(undefined, [assistant], compat())).toEqual([
      {
        role: 'assistant',
        content: 'Calling.',
        tool_calls: [
          { id: 'call_x', type: 'function', function: { name: 'run', arguments: '{"cmd":"ls"}' } },
          { id: 'call_y', type: 'function', function: { name: 'run', arguments: '{}' } },
        ],
      },
    ]);
  });

  it('echoes thinking as reasoning_content when asked', () => {
    const [converted] = convertMessages(undefined, [assistant], compat({ echoReasoningContent: true }));
    expect(converted).toMatchObject({ role: 'assistant', reasoning_content: 'Plan A.' });
  });

  it('sends "" as reasoning_content on a tool-call turn without thinking, and nothing on a plain text turn', () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'ls', input: {} }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ];
    expect(convertMessages(undefined, messages, compat({ echoReasoningContent: true }))).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'ls', arguments: '{}' } }],
        reasoning_content: '',
      },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('drops an assistant message left empty, keeps a thinking-only one when echoing', () => {
    const thinkingOnly: Message = { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.' }] };
    expect(convertMessages(undefined, [thinkingOnly], compat())).toEqual([]);
    expect(convertMessages(undefined, [thinkingOnly], compat({ echoReasoningContent: true }))).toEqual([
      { role: 'assistant', content: '', reasoning_content: 'Hmm.' },
    ]);
  });
});
