import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../spec/message.js';
import { convertToOpenAIResponsesInput } from './openai-responses-messages.js';

const meta = (values: Record<string, unknown>) => ({ providerMetadata: { 'openai-responses': values } });

describe('convertToOpenAIResponsesInput: user content', () => {
  it('converts text, images, documents and drops empty text', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: '' },
          { type: 'text', text: 'Look:' },
          { type: 'image', source: { type: 'base64', mediaType: 'image/jpeg', data: 'AAAA' } },
          { type: 'image', source: { type: 'url', url: 'https://example.org/a.png' } },
          { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
          { type: 'document', title: 'notes.txt', source: { type: 'base64', mediaType: 'text/plain', data: 'aGk=' } },
          { type: 'document', source: { type: 'url', url: 'https://example.org/b.pdf' } },
        ],
      },
      { role: 'user', content: '' },
    ];
    expect(convertToOpenAIResponsesInput(messages, { store: false })).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look:' },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,AAAA', detail: 'auto' },
          { type: 'input_image', image_url: 'https://example.org/a.png', detail: 'auto' },
          { type: 'input_file', filename: 'document.pdf', file_data: 'data:application/pdf;base64,JVBE' },
          { type: 'input_file', filename: 'notes.txt', file_data: 'data:text/plain;base64,aGk=' },
          { type: 'input_file', file_url: 'https://example.org/b.pdf' },
        ],
      },
    ]);
  });

  it('places several tool results as output items, in order, around user text', () => {
    const messages: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'call_1', content: 'one' },
          { type: 'tool_result', toolUseId: 'call_2', content: [{ type: 'text', text: 'two' }], isError: true },
          { type: 'text', text: 'and then?' },
        ],
      },
    ];
    expect(convertToOpenAIResponsesInput(messages, { store: false })).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: 'one' },
      { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'two' }] },
      { role: 'user', content: [{ type: 'input_text', text: 'and then?' }] },
    ]);
  });

  it('sends system messages inside the conversation as developer messages', () => {
    expect(
      convertToOpenAIResponsesInput(
        [
          {
            role: 'system',
            content: [
              { type: 'text', text: 'A' },
              { type: 'text', text: 'B' },
            ],
          },
          { role: 'system', content: '' },
        ],
        { store: false },
      ),
    ).toEqual([{ role: 'developer', content: 'A\n\nB' }]);
  });
});

describe('convertToOpenAIResponsesInput: assistant content', () => {
  const assistant: AssistantMessage = {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'part one', ...meta({ itemId: 'rs_1' }) },
      { type: 'thinking', thinking: 'raw', ...meta({ itemId: 'rs_1', reasoningText: true }) },
      { type: 'thinking', thinking: 'part two', ...meta({ itemId: 'rs_1', encryptedContent: 'enc-1' }) },
      { type: 'redacted_thinking', data: 'enc-2', ...meta({ itemId: 'rs_2' }) },
      { type: 'text', text: 'Hello', ...meta({ itemId: 'msg_1', phase: 'commentary' }) },
      { type: 'text', text: ' world', ...meta({ itemId: 'msg_1', phase: 'commentary' }) },
      { type: 'text', text: 'No.', ...meta({ itemId: 'msg_2', refusal: true }) },
      { type: 'tool_use', id: 'call_1', name: 'grep', input: { q: 'x' }, ...meta({ itemId: 'fc_1' }) },
      {
        type: 'tool_use',
        id: 'call_2',
        name: 'sql',
        input: { input: 'SELECT 1' },
        ...meta({ itemId: 'ctc_1', customToolCall: true }),
      },
    ],
  };

  it('rebuilds reasoning items before the output that followed them, and omits item ids when stateless', () => {
    expect(convertToOpenAIResponsesInput([assistant], { store: false })).toEqual([
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [
          { type: 'summary_text', text: 'part one' },
          { type: 'summary_text', text: 'part two' },
        ],
        content: [{ type: 'reasoning_text', text: 'raw' }],
        encrypted_content: 'enc-1',
      },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'enc-2' },
      {
        type: 'message',
        role: 'assistant',
        phase: 'commentary',
        content: [
          { type: 'output_text', text: 'Hello', annotations: [] },
          { type: 'output_text', text: ' world', annotations: [] },
        ],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'grep', arguments: '{"q":"x"}' },
      { type: 'custom_tool_call', call_id: 'call_2', name: 'sql', input: 'SELECT 1' },
    ]);
  });

  it('sends item ids when responses are stored', () => {
    const items = convertToOpenAIResponsesInput([assistant], { store: true });
    expect(items.map((item) => item.id)).toEqual(['rs_1', 'rs_2', 'msg_1', 'msg_2', 'fc_1', 'ctc_1']);
  });

  it('drops reasoning that cannot be replayed statelessly, and reasoning from other vendors', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'stored only', ...meta({ itemId: 'rs_9' }) },
        { type: 'thinking', thinking: 'anthropic', signature: 'sig' },
        { type: 'redacted_thinking', data: 'anthropic-opaque' },
        { type: 'text', text: '' },
        { type: 'text', text: 'plain' },
      ],
    };
    expect(convertToOpenAIResponsesInput([message], { store: false })).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'plain', annotations: [] }] },
    ]);
    expect(convertToOpenAIResponsesInput([message], { store: true })[0]).toEqual({
      type: 'reasoning',
      id: 'rs_9',
      summary: [{ type: 'summary_text', text: 'stored only' }],
    });
  });

  it('answers a custom tool call with a custom_tool_call_output and resends {} for unusable arguments', () => {
    const items = convertToOpenAIResponsesInput(
      [
        assistant,
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'call_3',
              name: 'grep',
              input: {},
              inputError: { kind: 'invalid-json', message: 'bad', rawInput: '{"q":' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 'call_2', content: '1 row' },
            { type: 'tool_result', toolUseId: 'call_3', content: 'bad arguments', isError: true },
          ],
        },
      ],
      { store: false },
    );
    expect(items.slice(-3)).toEqual([
      { type: 'function_call', call_id: 'call_3', name: 'grep', arguments: '{}' },
      { type: 'custom_tool_call_output', call_id: 'call_2', output: '1 row' },
      { type: 'function_call_output', call_id: 'call_3', output: 'bad arguments' },
    ]);
  });
});
