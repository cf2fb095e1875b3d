import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JsonObject } from '@boxagnts/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionEngine } from './permission-engine.js';
import { suggestRules } from './suggest-rules.js';

const bash = { name: 'bash', permission: 'execute' } as const;
const edit = { name: 'edit', permission: 'write' } as const;
const webFetch = { name: 'web_fetch', permission: 'network' } as const;
const issue = { name: 'mcp__github__create_issue', permission: 'network' } as const;

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'suggest-rules-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('suggestRules', () => {
  it.each([
    [bash, { command: 'npm test' }, ['bash(npm test)']],
    [bash, { command: '  npm   test && git status ; npm test' }, ['bash(npm test)', 'bash(git status)']],
    [bash, { command: 'echo "(a) b"' }, ['bash(echo "\\(a\\) b")']],
    [bash, { command: 'echo \\(' }, ['bash(echo \\\\()']],
    [edit, { file_path: 'src/a.ts' }, ['edit(src/a.ts)']],
    [edit, { file_path: './src/../lib/b.ts' }, ['edit(lib/b.ts)']],
    [webFetch, { url: 'https://Docs.Example.com./guide?q=1' }, ['web_fetch(domain:docs.example.com)']],
    [issue, { title: 'x', body: 'y' }, ['mcp__github__create_issue']],
    [{ name: 'skill', permission: 'execute' }, { skill: 'deploy' }, ['skill(deploy)']],
  ] as const)('%j %j -> %j', (tool, input, expected) => {
    expect(suggestRules(tool, input as JsonObject, { root })).toEqual(expected);
  });

  it('the suggestions, added as allow rules, allow the same call again', () => {
    const calls: Array<[typeof bash | typeof edit | typeof webFetch, JsonObject]> = [
      [bash, { command: "git commit -m 'a; (b)'" }],
      [bash, { command: 'CI=1 npm test 2>&1 | tee' }],
      [edit, { file_path: path.join(root, 'src', 'a b.ts') }],
      [webFetch, { url: 'https://api.example.com/v1' }],
    ];
    for (const [tool, input] of calls) {
      const engine = createPermissionEngine();
      expect(engine.evaluate(tool, input, { root }).behavior).toBe('ask');
      const rules = suggestRules(tool, input, { root });
      expect(rules, JSON.stringify(input)).toBeDefined();
      engine.addRules({ allow: rules ?? [] });
      expect(engine.evaluate(tool, input, { root }).behavior).toBe('allow');
    }
  });

  it('suggested rules stay narrow', () => {
    const engine = createPermissionEngine({
      rules: { allow: suggestRules(bash, { command: 'npm test' }, { root }) ?? [] },
    });
    expect(engine.evaluate(bash, { command: 'npm test && rm -rf /' }, { root }).behavior).toBe('ask');
    expect(engine.evaluate(bash, { command: 'npm test --x' }, { root }).behavior).toBe('ask');
  });

  it.each([
    [bash, { command: 'npm test $(curl x)' }],
    [bash, { command: 'npm test > out.txt' }],
    [bash, { command: 'ls *.ts' }],
    [bash, { command: '' }],
    [bash, { command: 'echo "abc' }],
    [edit, { file_path: '../outside.ts' }],
    [edit, { file_path: '/etc/hosts' }],
    [edit, { file_path: 'src/[id].ts' }],
    [edit, { file_path: '.' }],
    [webFetch, { url: 'not a url' }],
    [webFetch, { url: 'file:///etc/passwd' }],
    [{ name: 'grep', permission: 'read-only' }, { pattern: 'a*b' }],
  ] as const)('suggests nothing for %j %j', (tool, input) => {
    expect(suggestRules(tool, input as JsonObject, { root })).toBeUndefined();
  });
});
