import { describe, expect, it } from 'vitest';
import { callSubject, SUBJECT_FIELDS, urlSubject } from './call-subject.js';

describe('callSubject', () => {
  it('reads the first string field in the documented order', () => {
    expect(SUBJECT_FIELDS).toEqual([
      'command',
      'file_path',
      'path',
      'notebook_path',
      'url',
      'pattern',
      'query',
      'skill',
      'name',
    ]);
    expect(callSubject({ pattern: '*.ts', path: 'src' })).toEqual({ field: 'path', kind: 'path', value: 'src' });
    expect(callSubject({ command: 'ls', file_path: 'a' })).toEqual({ field: 'command', kind: 'command', value: 'ls' });
    expect(callSubject({ notebook_path: 'n.ipynb' })).toEqual({
      field: 'notebook_path',
      kind: 'path',
      value: 'n.ipynb',
    });
    expect(callSubject({ url: 'https://x.dev' })).toEqual({ field: 'url', kind: 'text', value: 'https://x.dev' });
    expect(callSubject({ query: 'q', name: 'n' })).toEqual({ field: 'query', kind: 'text', value: 'q' });
    expect(callSubject({ skill: 'deploy' })).toEqual({ field: 'skill', kind: 'text', value: 'deploy' });
  });

  it('skips fields that are not strings and never throws on odd input', () => {
    expect(callSubject({ command: 42, path: 'src' })?.field).toBe('path');
    expect(callSubject({ command: ['rm', '-rf'] })).toBeUndefined();
    expect(callSubject({})).toBeUndefined();
    expect(callSubject(null)).toBeUndefined();
    expect(callSubject('rm -rf /')).toBeUndefined();
    expect(callSubject(['rm'])).toBeUndefined();
    expect(callSubject(Object.create({ command: 'inherited' }))).toBeUndefined();
  });

  it('keeps an empty string as a subject', () => {
    expect(callSubject({ command: '' })).toEqual({ field: 'command', kind: 'command', value: '' });
  });
});

describe('urlSubject', () => {
  it('prefers the url field, else the subject', () => {
    expect(urlSubject({ query: 'q', url: 'https://a.dev' })).toBe('https://a.dev');
    expect(urlSubject({ query: 'https://b.dev' })).toBe('https://b.dev');
    expect(urlSubject({ url: 7 })).toBeUndefined();
    expect(urlSubject(undefined)).toBeUndefined();
  });
});
