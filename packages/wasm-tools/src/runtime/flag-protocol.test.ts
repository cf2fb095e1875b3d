import { resultText } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { commandOutputToResult, inputToArgv } from './flag-protocol.js';

describe('inputToArgv', () => {
  it('turns JSON input into the exact BoxAgnts argv', () => {
    expect(
      inputToArgv('hello', {
        user_name: 'Ada',
        loud: true,
        quiet: false,
        missing: null,
        times: 2,
        ratio: 0.5,
        tags: ['a', 'b'],
        options: { deep_key: 1 },
        empty: '',
      }),
    ).toEqual([
      'hello',
      '--user-name',
      'Ada',
      '--loud',
      '--times',
      '2',
      '--ratio',
      '0.5',
      '--tags',
      '["a","b"]',
      '--options',
      '{"deep_key":1}',
      '--empty',
      '',
    ]);
  });

  it('keeps a value that looks like a flag as one argument', () => {
    expect(inputToArgv('t', { text: '--not-a-flag' })).toEqual(['t', '--text', '--not-a-flag']);
  });

  it('gives only the tool name for empty input', () => {
    expect(inputToArgv('only', {})).toEqual(['only']);
  });
});

describe('commandOutputToResult', () => {
  it('reads the JSON result shape', () => {
    const result = commandOutputToResult({
      stdout: '{"content":"done","metadata":{"count":3}}\n',
      stderr: '',
      status: 'ok',
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'done' }], metadata: { count: 3 } });
  });

  it('marks is_error and error as errors', () => {
    const flagged = commandOutputToResult({
      stdout: '{"content":"bad input","is_error":true}',
      stderr: '',
      status: 'ok',
    });
    expect(flagged.isError).toBe(true);
    expect(resultText(flagged)).toBe('bad input');
    const withError = commandOutputToResult({ stdout: '{"error":"no such user"}', stderr: '', status: 'ok' });
    expect(withError.isError).toBe(true);
    expect(resultText(withError)).toBe('no such user');
  });

  it('passes plain text through', () => {
    const result = commandOutputToResult({ stdout: 'just words', stderr: '', status: 'ok' });
    expect(result).toEqual({ content: [{ type: 'text', text: 'just words' }] });
    const notJson = commandOutputToResult({ stdout: '{broken', stderr: '', status: 'ok' });
    expect(resultText(notJson)).toBe('{broken');
  });

  it('turns stderr, run errors and non-zero exits into errors', () => {
    const stderr = commandOutputToResult({ stdout: 'partial', stderr: 'warning: x', status: 'ok' });
    expect(stderr.isError).toBe(true);
    expect(resultText(stderr)).toContain('warning: x');
    expect(commandOutputToResult({ stdout: '', stderr: '', status: 'err' }).isError).toBe(true);
    const exited = commandOutputToResult({ stdout: '', stderr: '', status: 'exit', exitCode: 3 });
    expect(resultText(exited)).toBe('The command exited with code 3.');
    expect(commandOutputToResult({ stdout: 'fine', stderr: '', status: 'exit', exitCode: 0 }).isError).toBeUndefined();
  });
});

describe('commandOutputToResult with BoxAgnts debug notation', () => {
  it('reads a refusal printed as Rust debug notation as an error result', () => {
    const result = commandOutputToResult({
      stdout: 'Object {"content": String("File not found: ../outside.txt"), "is_error": Bool(true)}\n',
      stderr: '',
      status: 'ok',
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('File not found: ../outside.txt');
  });

  it('reads a success with metadata, escapes and non-ASCII text', () => {
    const result = commandOutputToResult({
      stdout:
        'Object {"content": String("1\\tport = \\"8000\\"\\n2\\tnom = «café» \\u{1f600}"), "is_error": Bool(false), "metadata": Object {"file_path": String("config.toml"), "replacements": Number(1), "tags": Array [Null, Bool(true)]}}',
      stderr: '',
      status: 'ok',
    });
    expect(result.isError ?? false).toBe(false);
    expect(resultText(result)).toBe('1\tport = "8000"\n2\tnom = «café» 😀');
    expect(result.metadata).toEqual({ file_path: 'config.toml', replacements: 1, tags: [null, true] });
  });

  it('honours is_error in JSON output too', () => {
    const result = commandOutputToResult({
      stdout: '{"content": "denied", "is_error": true}',
      stderr: '',
      status: 'ok',
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('denied');
  });

  it('keeps text that only looks like debug notation as plain text', () => {
    const result = commandOutputToResult({ stdout: 'Object {"content": String("cut', stderr: '', status: 'ok' });
    expect(result.isError ?? false).toBe(false);
    expect(resultText(result)).toBe('Object {"content": String("cut');
  });
});
