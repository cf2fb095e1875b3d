import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../spec/stream-event.js';
import {
  closeReasoningItem,
  closeTextParts,
  finishReasoningItem,
  type MessageItem,
  openReasoningPart,
  openTextPart,
  type ReasoningItem,
} from './openai-responses-output-blocks.js';

const message = (): MessageItem => ({
  kind: 'message',
  key: 'msg',
  wireId: 'msg',
  phase: 'commentary',
  parts: new Map(),
});
const reasoning = (): ReasoningItem => ({
  kind: 'reasoning',
  key: 'rs',
  wireId: 'rs',
  blocks: new Map(),
  open: undefined,
});

describe('text parts', () => {
  it('open once per content index and close one or all', () => {
    const item = message();
    const out: StreamEvent[] = [];
    expect(openTextPart(item, 0, false, out)).toBe('msg:0');
    expect(openTextPart(item, 0, false, out)).toBe('msg:0');
    openTextPart(item, 1, true, out);
    closeTextParts(item, out, 1);
    closeTextParts(item, out);
    closeTextParts(item, out);
    expect(out).toEqual([
      {
        type: 'text-start',
        blockId: 'msg:0',
        providerMetadata: { 'openai-responses': { itemId: 'msg', phase: 'commentary' } },
      },
      {
        type: 'text-start',
        blockId: 'msg:1',
        providerMetadata: { 'openai-responses': { itemId: 'msg', phase: 'commentary', refusal: true } },
      },
      { type: 'text-end', blockId: 'msg:1' },
      { type: 'text-end', blockId: 'msg:0' },
    ]);
  });
});

describe('reasoning parts', () => {
  it('end the previous part when the next opens and put the encrypted content on the last', () => {
    const item = reasoning();
    const out: StreamEvent[] = [];
    openReasoningPart(item, 'summary', 0, out);
    openReasoningPart(item, 'summary', 1, out);
    finishReasoningItem(item, { type: 'reasoning', encrypted_content: 'enc' }, out);
    closeReasoningItem(item, out);
    expect(out).toEqual([
      { type: 'thinking-start', blockId: 'rs:summary:0', providerMetadata: { 'openai-responses': { itemId: 'rs' } } },
      { type: 'thinking-end', blockId: 'rs:summary:0' },
      { type: 'thinking-start', blockId: 'rs:summary:1', providerMetadata: { 'openai-responses': { itemId: 'rs' } } },
      {
        type: 'thinking-end',
        blockId: 'rs:summary:1',
        providerMetadata: { 'openai-responses': { encryptedContent: 'enc' } },
      },
    ]);
  });

  it('emit parts that were never streamed from the done item, and an empty item as redacted thinking', () => {
    const whole = reasoning();
    const out: StreamEvent[] = [];
    finishReasoningItem(
      whole,
      { type: 'reasoning', summary: [{ text: 'a' }, { text: '' }], content: [{ text: 'b' }] },
      out,
    );
    expect(out.map((event) => event.type)).toEqual([
      'thinking-start',
      'thinking-delta',
      'thinking-end',
      'thinking-start',
      'thinking-delta',
      'thinking-end',
    ]);
    const empty: StreamEvent[] = [];
    finishReasoningItem(reasoning(), { type: 'reasoning', encrypted_content: null }, empty);
    expect(empty).toEqual([
      {
        type: 'redacted-thinking',
        blockId: 'rs',
        data: '',
        providerMetadata: { 'openai-responses': { itemId: 'rs' } },
      },
    ]);
  });
});
