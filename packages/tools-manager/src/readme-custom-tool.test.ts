import { defineTool, textResult } from '@boxagnts/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolSet } from './tool-set/create-tool-set.js';

// The "Writing a custom tool" example of the README, verbatim but for the assertions.
describe('the README custom-tool example', () => {
  it('runs as written', async () => {
    const shout = defineTool({
      name: 'shout',
      description: 'Repeat a text in capital letters.',
      inputSchema: z.object({ text: z.string().min(1) }),
      permission: 'read-only',
      execute: async ({ text }) => textResult(text.toUpperCase()),
    });

    const tools = await createToolSet({ sources: [{ name: 'my-tools', kind: 'custom', load: async () => [shout] }] });
    const context = {
      root: process.cwd(),
      signal: AbortSignal.timeout(30_000),
      sessionId: 's1',
      turnId: 't1',
      toolCallId: 'c1',
    };
    const result = await tools.execute('shout', { text: 'hello' }, context);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'HELLO' }] });
    const bad = await tools.execute('shout', { text: 42 }, context);
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('text');
    await tools.close();
  });
});
