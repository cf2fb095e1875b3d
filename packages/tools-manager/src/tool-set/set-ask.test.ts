import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultText } from '@boxagnts/tools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRequest } from '../types.js';
import { createToolSet } from './create-tool-set.js';
import { type CallLog, standardTools, testContext, testSource } from './test/fixtures.js';

let root: string;
let log: CallLog;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'set-ask-'));
  log = [];
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const rules = { ask: ['bash(git push:*)'] };

describe('ToolSet.setAsk', () => {
  it('gives later calls a new handler, with the matching rule, and takes it away again', async () => {
    const toolSet = await createToolSet({
      sources: [testSource('sandbox', standardTools(log))],
      permissions: { rules },
    });
    const context = testContext(root);
    const before = await toolSet.execute('bash', { command: 'git push origin main' }, context);
    expect(resultText(before)).toContain('no user is available');

    const requests: PermissionRequest[] = [];
    toolSet.setAsk(async (request) => {
      requests.push(request);
      return { behavior: 'allow' };
    });
    const allowed = await toolSet.execute('bash', { command: 'git push origin main' }, context);
    expect(allowed.isError).not.toBe(true);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.rule).toBe('bash(git push:*)');
    expect(log.map((call) => call.input.command)).toEqual(['git push origin main']);

    toolSet.setAsk(undefined);
    const after = await toolSet.execute('bash', { command: 'git push origin main' }, context);
    expect(after.isError).toBe(true);
    expect(resultText(after)).toContain('no user is available');
    expect(requests).toHaveLength(1);
  });
});
