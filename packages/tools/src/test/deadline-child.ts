// Run as a child process by execute-tool.test.ts: one tool call whose tool never settles and holds no
// handle of its own, or one that answers at once, with the timeout given on the command line. Prints
// the result's text; the parent checks the process stayed alive for the timeout, or exited promptly.
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { executeTool } from '../execute-tool.js';
import { resultText, textResult } from '../tool-results.js';
import { testContext } from './context.js';

const [mode, timeout] = process.argv.slice(2);
const tool = defineTool({
  name: 'child',
  description: 'Never settles, or answers at once.',
  inputSchema: z.object({}),
  permission: 'read-only',
  execute: () => (mode === 'hang' ? new Promise(() => undefined) : Promise.resolve(textResult('done'))),
});
const result = await executeTool(tool, {}, testContext(), { timeoutMs: Number(timeout) });
process.stdout.write(resultText(result));
