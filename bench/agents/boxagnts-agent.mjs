// The small agent of the bench, written as a user of @boxagnts/api, query and tools writes it: one tool,
// one run on the Anthropic protocol (the testkit mock at argv[2]), the outcome checked. Prints its own cost.
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { runQueryToEnd } from '@boxagnts/query';
import { defineTool, textResult } from '@boxagnts/tools';
import { z } from 'zod';

const wordCount = defineTool({
  name: 'word_count',
  description: 'Count the words of a text.',
  inputSchema: z.object({ text: z.string() }),
  permission: 'read-only',
  async execute({ text }) {
    return textResult(String(text.split(/\s+/).filter(Boolean).length));
  },
});

const outcome = await runQueryToEnd({
  provider: createAnthropicMessagesProvider({ baseURL: process.argv[2], apiKey: 'bench-key' }),
  messages: [{ role: 'user', content: 'How many words are in "one two three"?' }],
  tools: [wordCount],
  toolContext: { root: process.cwd(), sessionId: 'bench' },
  config: { model: 'claude-sonnet-4-6', maxTurns: 4 },
});
const answer = outcome.messages?.at(-1)?.content;
const cpu = process.cpuUsage();
process.stdout.write(
  JSON.stringify({
    ok: outcome.reason === 'end_turn' && JSON.stringify(answer ?? outcome).includes('Three words'),
    reason: outcome.reason,
    wallMs: performance.now(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
