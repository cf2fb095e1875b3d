import path from 'node:path';
import type { JsonObject } from '@boxagnts/api';
import type { ToolPermission } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import type { PermissionRules } from '../types.js';
import { createPermissionEngine } from './permission-engine.js';

// The example table of the README, row by row, so the documentation stays true.

const root = path.resolve('/work/readme-root');
const bash = { name: 'bash', permission: 'execute' as ToolPermission };

const rows: Array<
  [string, PermissionRules, { name: string; permission: ToolPermission }, JsonObject, string, string?]
> = [
  ['prefix', { allow: ['bash(npm test:*)'] }, bash, { command: 'npm test -- --run' }, 'allow'],
  ['word boundary', { allow: ['bash(npm test:*)'] }, bash, { command: 'npm testx' }, 'ask'],
  ['compound', { allow: ['bash(npm test:*)'] }, bash, { command: 'npm test && rm -rf /' }, 'ask'],
  ['substitution', { allow: ['bash(npm test:*)'] }, bash, { command: 'npm test $(curl x)' }, 'ask'],
  [
    'two rules',
    { allow: ['bash(npm test:*)', 'bash(git status)'] },
    bash,
    { command: 'git status; npm test' },
    'allow',
  ],
  ['quoted separator', { allow: ['bash(git commit:*)'] }, bash, { command: "git commit -m 'x; y'" }, 'allow'],
  ['wrappers', { deny: ['bash(rm:*)'] }, bash, { command: 'ls && sudo /bin/rm -rf /' }, 'deny', 'bash(rm:*)'],
  ['substitution deny', { deny: ['bash(rm:*)'] }, bash, { command: 'echo "$(rm -rf /)"' }, 'deny', 'bash(rm:*)'],
  ['argument', { deny: ['bash(rm:*)'] }, bash, { command: 'git rm file.txt' }, 'ask'],
  [
    'absolute inside',
    { allow: ['edit(src/**)'] },
    { name: 'edit', permission: 'write' },
    { file_path: path.join(root, 'src/a.ts') },
    'allow',
  ],
  [
    'dot-dot',
    { allow: ['edit(src/**)'] },
    { name: 'edit', permission: 'write' },
    { file_path: 'src/../secrets' },
    'ask',
  ],
  [
    'outside deny',
    { deny: ['read(**/.env)'] },
    { name: 'read', permission: 'read-only' },
    { file_path: '../other/.env' },
    'deny',
  ],
  [
    'userinfo',
    { allow: ['web_fetch(domain:docs.example.com)'] },
    { name: 'web_fetch', permission: 'network' },
    { url: 'https://docs.example.com@evil.com/' },
    'ask',
  ],
  [
    'apex',
    { allow: ['web_fetch(domain:*.example.com)'] },
    { name: 'web_fetch', permission: 'network' },
    { url: 'https://example.com/' },
    'ask',
  ],
  ['deny in pipe', { allow: ['bash(*)'], deny: ['bash(curl:*)'] }, bash, { command: 'ls; curl x | sh' }, 'deny'],
  [
    'ask over allow',
    { ask: ['bash(git push:*)'], allow: ['bash'] },
    bash,
    { command: 'git push' },
    'ask',
    'bash(git push:*)',
  ],
  ['server prefix', { deny: ['mcp__github__*'] }, { name: 'mcp__githubx__y', permission: 'network' }, {}, 'ask'],
];

describe('README examples', () => {
  it.each(rows)('%s', (_label, rules, tool, input, behavior, rule) => {
    const decision = createPermissionEngine({ rules }).evaluate(tool, input, { root });
    expect(decision.behavior).toBe(behavior);
    if (rule !== undefined) expect(decision.rule).toBe(rule);
  });

  it('the quick example', () => {
    const engine = createPermissionEngine({
      mode: 'default',
      rules: {
        allow: ['bash(npm test:*)', 'bash(git status)', 'edit(src/**)', 'web_fetch(domain:*.example.com)'],
        ask: ['bash(git push:*)'],
        deny: ['bash(rm:*)', 'read(**/.env)', 'mcp__github__delete_*'],
      },
    });
    expect(engine.evaluate(bash, { command: 'npm test -- --run' }, { root })).toEqual({
      behavior: 'allow',
      rule: 'bash(npm test:*)',
      reason: 'Allowed by rule `bash(npm test:*)`.',
    });
    expect(engine.evaluate(bash, { command: 'npm test && rm -rf /' }, { root })).toMatchObject({
      behavior: 'deny',
      rule: 'bash(rm:*)',
    });
  });
});
