import { describe, expect, it } from 'vitest';
import { createPermissionEngine } from '../permissions/permission-engine.js';
import { exactSubjectRule, RememberedAnswers } from './remembered-answers.js';

describe('exactSubjectRule', () => {
  it('writes a rule for plain commands, paths and texts', () => {
    expect(exactSubjectRule('bash', { command: 'npm run build' })).toBe('bash(npm run build)');
    expect(exactSubjectRule('write', { path: 'src/a.ts', content: '*' })).toBe('write(src/a.ts)');
    expect(exactSubjectRule('web_fetch', { url: 'https://example.com/docs' })).toBe(
      'web_fetch(https://example.com/docs)',
    );
  });

  it('refuses subjects a pattern would read as syntax, and calls without a subject', () => {
    expect(exactSubjectRule('bash', { command: 'ls *.ts' })).toBeUndefined();
    expect(exactSubjectRule('bash', { command: 'a && b' })).toBeUndefined();
    expect(exactSubjectRule('bash', { command: 'echo $(id)' })).toBeUndefined();
    expect(exactSubjectRule('read', { path: 'src/{a,b}.ts' })).toBeUndefined();
    expect(exactSubjectRule('read', { path: '../outside' })).toBeUndefined();
    expect(exactSubjectRule('web_search', { query: 'domain:example.com' })).toBeUndefined();
    expect(exactSubjectRule('agent', { prompt: 'do it' })).toBeUndefined();
  });
});

describe('RememberedAnswers', () => {
  const bash = { name: 'bash', permission: 'execute' as const };
  const context = { root: '/repo' };

  it('adds an engine rule when one decides the call as answered', () => {
    const engine = createPermissionEngine();
    const remembered = new RememberedAnswers(engine);
    expect(remembered.remember(bash, { command: 'make' }, 'allow', context)).toBe('bash(make)');
    expect(engine.evaluate(bash, { command: 'make' }, context).behavior).toBe('allow');
    expect(engine.evaluate(bash, { command: 'make install' }, context).behavior).toBe('ask');
    expect(remembered.recall('bash', { command: 'make' })).toBeUndefined();
  });

  it('remembers the exact call when no rule can say it', () => {
    const remembered = new RememberedAnswers(createPermissionEngine());
    expect(remembered.remember(bash, { command: 'ls *.ts', cwd: 'a' }, 'deny', context)).toBeUndefined();
    expect(remembered.recall('bash', { cwd: 'a', command: 'ls *.ts' })).toBe('deny');
    expect(remembered.recall('bash', { command: 'ls *.ts' })).toBeUndefined();
  });
});
