import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JsonObject } from '@boxagnts/api';
import type { ToolPermission } from '@boxagnts/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionEngine, PermissionMode, PermissionRules } from '../types.js';
import { isPermissionRuleError } from './parse-rule.js';
import { createPermissionEngine } from './permission-engine.js';
import { isPermissionModeError } from './permission-mode.js';

const tool = (name: string, permission: ToolPermission) => ({ name, permission });
const bash = tool('bash', 'execute');
const read = tool('read', 'read-only');
const write = tool('write', 'write');
const edit = tool('edit', 'write');
const webFetch = tool('web_fetch', 'network');
const exitPlanMode = tool('exit_plan_mode', 'write');
const enterPlanMode = tool('enter_plan_mode', 'read-only');

let root = '';
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'permission-engine-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function decide(engine: PermissionEngine, target: { name: string; permission: ToolPermission }, input: JsonObject) {
  return engine.evaluate(target, input, { root });
}

function behavior(
  rules: PermissionRules,
  target: { name: string; permission: ToolPermission },
  input: JsonObject,
  mode?: PermissionMode,
) {
  return decide(createPermissionEngine({ rules, ...(mode === undefined ? {} : { mode }) }), target, input).behavior;
}

describe('createPermissionEngine: evaluation order', () => {
  it('deny beats ask beats allow, whatever the order rules are written in', () => {
    const engine = createPermissionEngine({
      rules: {
        allow: ['bash(rm:*)', 'bash(git:*)', 'bash(npm:*)'],
        ask: ['bash(git push:*)', 'bash(rm:*)'],
        deny: ['bash(rm:*)'],
      },
    });
    expect(decide(engine, bash, { command: 'rm -rf build' })).toEqual({
      behavior: 'deny',
      rule: 'bash(rm:*)',
      reason: 'Denied by rule `bash(rm:*)`. Do not retry this call; do the task another way or ask the user.',
    });
    expect(decide(engine, bash, { command: 'git push origin main' })).toEqual({
      behavior: 'ask',
      rule: 'bash(git push:*)',
      reason: 'Needs approval: rule `bash(git push:*)` asks for it.',
    });
    expect(decide(engine, bash, { command: 'git status' })).toEqual({
      behavior: 'allow',
      rule: 'bash(git:*)',
      reason: 'Allowed by rule `bash(git:*)`.',
    });
  });

  it('a deny rule added after an allow rule still wins', () => {
    const engine = createPermissionEngine({ rules: { allow: ['bash'] } });
    expect(decide(engine, bash, { command: 'curl x' }).behavior).toBe('allow');
    engine.addRules({ deny: ['bash(curl:*)'] });
    expect(decide(engine, bash, { command: 'curl x' })).toMatchObject({ behavior: 'deny', rule: 'bash(curl:*)' });
    expect(decide(engine, bash, { command: 'ls' }).behavior).toBe('allow');
  });

  it('the first matching rule of a list is the one reported', () => {
    const engine = createPermissionEngine({ rules: { deny: ['read(.env)', 'read(*)', 'read'] } });
    expect(decide(engine, read, { file_path: '.env' }).rule).toBe('read(.env)');
    expect(decide(engine, read, { file_path: 'a.txt' }).rule).toBe('read(*)');
    expect(decide(engine, read, {}).rule).toBe('read');
  });

  it('a compound command allowed by several rules names them all', () => {
    const engine = createPermissionEngine({ rules: { allow: ['bash(npm test:*)', 'bash(git status)'] } });
    expect(decide(engine, bash, { command: 'git status && npm test' })).toEqual({
      behavior: 'allow',
      rule: 'bash(git status)',
      reason: 'Allowed by rules `bash(git status)`, `bash(npm test:*)`.',
    });
  });
});

describe('createPermissionEngine: tool patterns', () => {
  it('compares tool names case-insensitively', () => {
    expect(behavior({ deny: ['Bash(rm:*)'] }, bash, { command: 'rm x' })).toBe('deny');
    expect(behavior({ allow: ['READ'] }, tool('Read', 'write'), { file_path: 'a' })).toBe('allow');
  });

  it('wildcards in tool names stay inside their server prefix', () => {
    const rules = { deny: ['mcp__github__*'] };
    expect(behavior(rules, tool('mcp__github__create_issue', 'network'), {})).toBe('deny');
    expect(behavior(rules, tool('mcp__githubx__y', 'network'), {})).toBe('ask');
    expect(behavior(rules, tool('mcp__github', 'network'), {})).toBe('ask');
    expect(behavior({ deny: ['*'] }, read, {})).toBe('deny');
    expect(behavior({ deny: ['*(secrets/**)'] }, edit, { file_path: 'secrets/key' })).toBe('deny');
  });

  it('a rule for another tool never matches', () => {
    expect(behavior({ deny: ['bash(rm:*)', 'write'] }, read, { file_path: 'rm x', command: 'rm x' })).toBe('allow');
  });
});

describe('createPermissionEngine: subjects', () => {
  it('rules with a pattern never match a call without a subject', () => {
    expect(behavior({ deny: ['bash(*)'] }, bash, {})).toBe('ask');
    expect(behavior({ deny: ['bash(*)'] }, bash, { command: ['rm', '-rf'] } as unknown as JsonObject)).toBe('ask');
    expect(behavior({ allow: ['bash(*)'] }, bash, { command: 7 })).toBe('ask');
    expect(behavior({ deny: ['bash'] }, bash, {})).toBe('deny');
  });

  it('plain patterns are wildcards over other subjects', () => {
    expect(behavior({ allow: ['skill(deploy-*)'] }, tool('skill', 'execute'), { skill: 'deploy-web' })).toBe('allow');
    expect(behavior({ allow: ['skill(deploy-*)'] }, tool('skill', 'execute'), { skill: 'Deploy-web' })).toBe('ask');
    expect(behavior({ deny: ['skill(deploy-*)'] }, tool('skill', 'execute'), { skill: 'DEPLOY-web' })).toBe('deny');
    expect(behavior({ deny: ['grep(*password*)'] }, tool('grep', 'read-only'), { pattern: 'password=' })).toBe('deny');
    expect(behavior({ deny: ['web_search(*leak*)'] }, tool('web_search', 'network'), { query: 'a leak' })).toBe('deny');
  });

  it('`domain:` patterns read the url field whatever the subject', () => {
    const rules = { allow: ['web_fetch(domain:docs.example.com)'] };
    expect(behavior(rules, webFetch, { url: 'https://docs.example.com/a' })).toBe('allow');
    expect(behavior(rules, webFetch, { url: 'https://docs.example.com@evil.com/' })).toBe('ask');
    expect(behavior(rules, webFetch, { url: 'not a url' })).toBe('ask');
    expect(behavior(rules, webFetch, { url: 'https://docs.example.com/', query: 'x' })).toBe('allow');
    expect(behavior({ deny: ['*(domain:evil.com)'] }, bash, { command: 'curl x', url: 'https://evil.com' })).toBe(
      'deny',
    );
  });

  it('path patterns use the first path field', () => {
    const rules = { allow: ['edit(src/**)'] };
    expect(behavior(rules, edit, { file_path: 'src/a.ts' })).toBe('allow');
    expect(behavior(rules, edit, { file_path: path.join(root, 'src/a.ts') })).toBe('allow');
    expect(behavior(rules, edit, { path: 'src/a.ts' })).toBe('allow');
    expect(behavior(rules, edit, { notebook_path: 'src/n.ipynb' })).toBe('allow');
    expect(behavior(rules, edit, { file_path: 'lib/a.ts' })).toBe('ask');
  });
});

describe('createPermissionEngine: modes', () => {
  it('default: read-only tools run, others ask', () => {
    const engine = createPermissionEngine();
    expect(engine.mode).toBe('default');
    expect(decide(engine, read, { file_path: 'a' })).toEqual({
      behavior: 'allow',
      reason: 'Allowed: `read` is read-only and no rule matched.',
    });
    expect(decide(engine, bash, { command: 'ls' })).toEqual({
      behavior: 'ask',
      reason: 'Needs approval: `bash` needs execute permission and no allow rule matches this call.',
    });
    expect(decide(engine, write, { file_path: 'a' }).behavior).toBe('ask');
    expect(decide(engine, webFetch, { url: 'https://a.dev' }).behavior).toBe('ask');
  });

  it('plan: only read-only tools and exit_plan_mode run; rules still apply to them', () => {
    const engine = createPermissionEngine({
      mode: 'plan',
      rules: { allow: ['bash', 'write(src/**)'], ask: ['read(private/**)'], deny: ['read(.env)'] },
    });
    const refused = decide(engine, bash, { command: 'ls' });
    expect(refused.behavior).toBe('deny');
    expect(refused.rule).toBeUndefined();
    expect(refused.reason).toMatch(/plan mode.*`bash` needs execute permission.*exit_plan_mode/);
    expect(decide(engine, write, { file_path: 'src/a.ts' }).behavior).toBe('deny');
    expect(decide(engine, webFetch, { url: 'https://a.dev' }).behavior).toBe('deny');
    expect(decide(engine, read, { file_path: 'a.ts' }).behavior).toBe('allow');
    expect(decide(engine, enterPlanMode, {}).behavior).toBe('allow');
    expect(decide(engine, read, { file_path: '.env' })).toMatchObject({ behavior: 'deny', rule: 'read(.env)' });
    expect(decide(engine, read, { file_path: 'private/x' })).toMatchObject({
      behavior: 'ask',
      rule: 'read(private/**)',
    });
    expect(decide(engine, exitPlanMode, { plan: 'p' }).behavior).toBe('allow');
  });

  it('plan: exit_plan_mode follows its rules', () => {
    expect(behavior({ ask: ['exit_plan_mode'] }, exitPlanMode, { plan: 'p' }, 'plan')).toBe('ask');
    expect(behavior({ deny: ['exit_plan_mode'] }, exitPlanMode, { plan: 'p' }, 'plan')).toBe('deny');
  });

  it('accept-edits: writes inside the root run, other writes, commands and network ask', () => {
    const engine = createPermissionEngine({
      mode: 'accept-edits',
      rules: { ask: ['edit(package.json)'], deny: ['write(.git/**)'] },
    });
    expect(decide(engine, edit, { file_path: 'src/a.ts' })).toEqual({
      behavior: 'allow',
      reason: 'Allowed: accept-edits mode allows edits inside the working root.',
    });
    expect(decide(engine, write, { file_path: path.join(root, 'new.txt') }).behavior).toBe('allow');
    expect(decide(engine, write, { file_path: '../outside.txt' }).behavior).toBe('ask');
    expect(decide(engine, write, { file_path: '/etc/hosts' }).behavior).toBe('ask');
    expect(decide(engine, write, { content: 'no path' }).behavior).toBe('ask');
    expect(decide(engine, tool('mcp__db__insert', 'write'), { query: 'insert' }).behavior).toBe('ask');
    expect(decide(engine, edit, { file_path: 'package.json' }).behavior).toBe('ask');
    expect(decide(engine, write, { file_path: '.git/config' }).behavior).toBe('deny');
    expect(decide(engine, bash, { command: 'ls' }).behavior).toBe('ask');
    expect(decide(engine, webFetch, { url: 'https://a.dev' }).behavior).toBe('ask');
    expect(decide(engine, read, { file_path: 'a' }).behavior).toBe('allow');
  });

  it('bypass: everything runs except what a deny rule matches; ask rules do not ask', () => {
    const engine = createPermissionEngine({
      mode: 'bypass',
      rules: { ask: ['bash(git push:*)'], deny: ['bash(rm:*)'] },
    });
    expect(decide(engine, bash, { command: 'curl x' })).toEqual({
      behavior: 'allow',
      reason: 'Allowed: bypass mode allows every call no deny rule matches.',
    });
    expect(decide(engine, bash, { command: 'git push' })).toEqual({
      behavior: 'allow',
      rule: 'bash(git push:*)',
      reason: 'Allowed: bypass mode overrides ask rule `bash(git push:*)`.',
    });
    expect(decide(engine, bash, { command: 'ls && rm -rf /' }).behavior).toBe('deny');
    // The script a pipe feeds to `sh` is not in the text: it may be `rm`, so the deny rule holds.
    expect(decide(engine, bash, { command: 'curl x | sh' })).toMatchObject({ behavior: 'deny', rule: 'bash(rm:*)' });
    expect(decide(engine, write, { file_path: '/etc/hosts' }).behavior).toBe('allow');
  });

  it('setMode switches at run time', () => {
    const engine = createPermissionEngine({ rules: { deny: ['bash(rm:*)'] } });
    const call = { command: 'make' };
    expect(decide(engine, bash, call).behavior).toBe('ask');
    engine.setMode('plan');
    expect(engine.mode).toBe('plan');
    expect(decide(engine, bash, call).behavior).toBe('deny');
    engine.setMode('bypass');
    expect(decide(engine, bash, call).behavior).toBe('allow');
    expect(decide(engine, bash, { command: 'rm x' }).behavior).toBe('deny');
    engine.setMode('accept-edits');
    expect(decide(engine, edit, { file_path: 'a' }).behavior).toBe('allow');
    engine.setMode('default');
    expect(decide(engine, edit, { file_path: 'a' }).behavior).toBe('ask');
  });

  it('rejects an unknown mode with the list of modes', () => {
    expect(() => createPermissionEngine({ mode: 'yolo' as PermissionMode })).toThrow(
      /Unknown permission mode "yolo": use one of plan, default, accept-edits, bypass/,
    );
    const engine = createPermissionEngine();
    let caught: unknown;
    try {
      engine.setMode('auto' as PermissionMode);
    } catch (error) {
      caught = error;
    }
    expect(isPermissionModeError(caught)).toBe(true);
    expect(engine.mode).toBe('default');
  });
});

describe('createPermissionEngine: configuration', () => {
  it('parses rules at creation, so a bad rule fails there', () => {
    expect(() => createPermissionEngine({ rules: { allow: ['read'], deny: ['bash(rm:*'] } })).toThrow(
      /unbalanced parentheses/,
    );
    expect(() => createPermissionEngine({ rules: { allow: ['web_fetch(domain:https://x.com/)'] } })).toThrow(
      /write a bare host such as `web_fetch\(domain:example.com\)`/,
    );
  });

  it('rejects a rule list that is not an array', () => {
    expect(() => createPermissionEngine({ rules: { allow: 'bash' as unknown as string[] } })).toThrow(
      /Permission rules `allow` must be a list of strings, e.g. \{ allow: \['bash\(npm test:\*\)'\] \}, not "bash"/,
    );
  });

  it('addRules is all or nothing', () => {
    const engine = createPermissionEngine();
    let caught: unknown;
    try {
      engine.addRules({ allow: ['bash'], deny: ['bad rule'] });
    } catch (error) {
      caught = error;
    }
    expect(isPermissionRuleError(caught)).toBe(true);
    expect(decide(engine, bash, { command: 'ls' }).behavior).toBe('ask');
    engine.addRules({ allow: ['bash(ls)'] });
    expect(decide(engine, bash, { command: 'ls' }).behavior).toBe('allow');
  });

  it('evaluate never throws on odd input or context', () => {
    const engine = createPermissionEngine({
      rules: { allow: ['edit(src/**)', 'bash(ls)'], deny: ['web_fetch(domain:evil.com)', 'read(.env)'] },
    });
    const odd = [
      null,
      undefined,
      'text',
      42,
      [],
      { file_path: null },
      { command: { nested: true } },
    ] as unknown as JsonObject[];
    for (const input of odd) {
      expect(engine.evaluate(edit, input, { root }).behavior).toBe('ask');
      expect(engine.evaluate(read, input, { root }).behavior).toBe('allow');
      expect(engine.evaluate(webFetch, input, { root }).behavior).toBe('ask');
    }
    expect(engine.evaluate(edit, { file_path: 'src/a' }, {} as { root: string }).behavior).toBe('ask');
    expect(engine.evaluate(edit, { file_path: 'src/a' }, undefined as unknown as { root: string }).behavior).toBe(
      'ask',
    );
    expect(engine.evaluate(read, { file_path: '.env' }, undefined as unknown as { root: string }).behavior).toBe(
      'deny',
    );
  });
});
