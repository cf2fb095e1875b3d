// The same small agent with the AI SDK (`ai` + `@ai-sdk/anthropic`), the baseline of the bench: one tool,
// `generateText` until the model stops, on the testkit mock at argv[2]. Prints its own cost.
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';

const wordCount = tool({
  description: 'Count the words of a text.',
  inputSchema: z.object({ text: z.string() }),
  async execute({ text }) {
    return String(text.split(/\s+/).filter(Boolean).length);
  },
});

const anthropic = createAnthropic({ baseURL: `${process.argv[2]}/v1`, apiKey: 'bench-key' });
const result = await generateText({
  model: anthropic('claude-sonnet-4-6'),
  prompt: 'How many words are in "one two three"?',
  tools: { word_count: wordCount },
  stopWhen: stepCountIs(4),
  maxRetries: 0,
});
const cpu = process.cpuUsage();
process.stdout.write(
  JSON.stringify({
    ok: result.finishReason === 'stop' && result.text.includes('Three words'),
    reason: result.finishReason,
    wallMs: performance.now(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
