import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nativeToolSource } from '../native-source/native-tool-source.js';
import { createToolSet } from './create-tool-set.js';
import { type CallLog, memoryMode, standardTools, testContext, testSource } from './test/fixtures.js';

let root: string;
let log: CallLog;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'plan-mode-'));
  log = [];
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('plan mode', () => {
  it('enter_plan_mode flips the run into plan mode and write tools are refused until exit_plan_mode', async () => {
    const toolSet = await createToolSet({
      sources: [nativeToolSource(), testSource('sandbox', standardTools(log))],
      permissions: { mode: 'accept-edits' },
    });
    const mode = memoryMode();
    const context = testContext(root, { mode });
    const entered = await toolSet.execute('enter_plan_mode', {}, context);
    expect(entered.isError).toBeUndefined();
    expect(mode.get()).toBe('plan');
    expect(toolSet.permissions.mode).toBe('plan');

    const refused = await toolSet.execute('write', { path: 'src/a.ts', content: 'x' }, context);
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toMatch(/plan mode/);
    expect(refused.metadata).toMatchObject({ planMode: true, permission: { behavior: 'deny' } });
    const read = await toolSet.execute('read', { path: 'src/a.ts' }, context);
    expect(read.isError).toBeUndefined();

    const exited = await toolSet.execute('exit_plan_mode', { plan: '1. Edit src/a.ts' }, context);
    expect(exited.isError).toBeUndefined();
    expect(mode.get()).toBe('default');
    expect(toolSet.permissions.mode).toBe('accept-edits');
    const written = await toolSet.execute('write', { path: 'src/a.ts', content: 'x' }, context);
    expect(written.isError).toBeUndefined();
    expect(log.map((call) => call.tool)).toEqual(['read', 'write']);
  });

  it('refuses a write tool when the run says plan even if the engine does not', async () => {
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      permissions: { mode: 'bypass' },
      hooks: {
        beforeTool: [
          {
            run: () => {
              throw new Error('hooks must not run for a refused call');
            },
          },
        ],
      },
    });
    const result = await toolSet.execute('bash', { command: 'ls' }, testContext(root, { mode: memoryMode('plan') }));
    expect(result.metadata).toMatchObject({ planMode: true, permission: { behavior: 'deny' } });
    expect(log).toEqual([]);
  });

  it('enforces the engine plan mode without a run mode', async () => {
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      permissions: { mode: 'plan' },
    });
    const result = await toolSet.execute('web_fetch', { url: 'https://example.com' }, testContext(root));
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ planMode: true });
  });
});
