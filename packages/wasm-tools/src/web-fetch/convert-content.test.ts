import { describe, expect, it } from 'vitest';
import {
  classifyContentType,
  decodeText,
  extractMainContent,
  htmlToMarkdown,
  htmlToText,
  sniffContent,
} from './convert-content.js';

describe('classifyContentType', () => {
  it('sorts media types into html, text and binary', () => {
    expect(classifyContentType('text/html; charset=utf-8')).toBe('html');
    expect(classifyContentType('application/xhtml+xml')).toBe('html');
    for (const type of [
      'text/plain',
      'application/json',
      'application/ld+json',
      'application/atom+xml',
      'text/csv',
      'application/x-ndjson',
    ]) {
      expect(classifyContentType(type), type).toBe('text');
    }
    for (const type of ['image/png', 'application/pdf', 'application/octet-stream', 'video/mp4']) {
      expect(classifyContentType(type), type).toBe('binary');
    }
    expect(classifyContentType(undefined)).toBeUndefined();
  });

  it('sniffs untyped bodies', () => {
    expect(sniffContent(Buffer.from('  <!DOCTYPE html><p>x'))).toBe('html');
    expect(sniffContent(Buffer.from('plain words'))).toBe('text');
    expect(sniffContent(Buffer.from([1, 0, 2]))).toBe('binary');
  });

  it('decodes named charsets and falls back to UTF-8', () => {
    expect(decodeText(Buffer.from([0xe9]), 'text/plain; charset="ISO-8859-1"')).toBe('é');
    expect(decodeText(Buffer.from('é'), 'text/plain; charset=no-such-charset')).toBe('é');
  });
});

describe('HTML conversion', () => {
  it('drops scripts and makes links absolute', () => {
    const page = extractMainContent(
      '<html><head><title> T </title></head><body><script>evil()</script><p>Hi <a href="../x">x</a> <img src="/i.png"></p></body></html>',
      'https://a.test/dir/page',
    );
    expect(page.title).toBe('T');
    expect(page.html).not.toContain('evil()');
    expect(htmlToMarkdown(page.html)).toBe('Hi [x](https://a.test/x) ![](https://a.test/i.png)');
  });

  it('turns HTML into text with line breaks between blocks', () => {
    expect(htmlToText('<h1>Title</h1><p>One   two</p><ul><li>a</li><li>b</li></ul>')).toBe('Title\nOne two\na\nb');
  });
});
