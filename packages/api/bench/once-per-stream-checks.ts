import { randomBytes } from 'node:crypto';
import {
  isPlainMessageDeltaEvent,
  isPlainMessageStartEvent,
  messageDeltaEventSchema,
  messageStartEventSchema,
} from '../src/adapters/anthropic-messages/anthropic-wire.js';
import { chunkSchema, parseChunk } from '../src/adapters/openai-chat/openai-chat-wire.js';
import {
  openaiResponsesOutputItemSchema,
  openaiResponsesResponseSchema,
  readResponsesOutputItem,
  readResponsesResponse,
} from '../src/adapters/openai-responses/openai-responses-wire.js';

// `pnpm --filter @boxagnts/api bench:checks`: what a stream pays once (or a few times) for the
// chunks that carry its start, usage and end, with zod (before issue 18 round 2) and with the
// structural checks that now vouch for plain chunks, in one process, interleaved. µs per call.

const usageChunk = JSON.stringify({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'deepseek',
  system_fingerprint: 'fp',
  choices: [],
  usage: {
    prompt_tokens: 12,
    completion_tokens: 40,
    total_tokens: 52,
    prompt_tokens_details: { cached_tokens: 8 },
    completion_tokens_details: { reasoning_tokens: 30 },
    prompt_cache_hit_tokens: 8,
    prompt_cache_miss_tokens: 4,
  },
});
const messageStart = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude',
    content: [],
    stop_reason: null,
    usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
  },
};
const messageDelta = {
  type: 'message_delta',
  delta: { stop_reason: 'end_turn', stop_sequence: null },
  usage: { output_tokens: 400 },
};
const outputItem = {
  id: 'msg',
  type: 'message',
  content: [{ type: 'output_text', text: 'x'.repeat(2600), annotations: [] }],
};
const response = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'gpt',
  output: [outputItem],
  usage: {
    input_tokens: 30,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 600,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 630,
  },
  tools: [],
};

/** Median µs per call over 7 rounds of `calls` calls, after a warm-up. */
function time(run: () => unknown, calls = 20_000): number {
  for (let index = 0; index < 2_000; index += 1) run();
  const rounds: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < calls; index += 1) run();
    rounds.push(Number(process.hrtime.bigint() - started) / calls / 1_000);
  }
  rounds.sort((a, b) => a - b);
  return rounds[3] as number;
}

const cases: Array<[string, () => unknown, () => unknown]> = [
  [
    'OpenAI Chat usage chunk (JSON.parse included)',
    () => chunkSchema.safeParse(JSON.parse(usageChunk)),
    () => parseChunk(usageChunk),
  ],
  [
    'Anthropic message_start',
    () => messageStartEventSchema.safeParse(messageStart),
    () => isPlainMessageStartEvent(messageStart),
  ],
  [
    'Anthropic message_delta',
    () => messageDeltaEventSchema.safeParse(messageDelta),
    () => isPlainMessageDeltaEvent(messageDelta),
  ],
  [
    'Responses response object',
    () => openaiResponsesResponseSchema.safeParse(response),
    () => readResponsesResponse(response),
  ],
  [
    'Responses output item',
    () => openaiResponsesOutputItemSchema.safeParse(outputItem),
    () => readResponsesOutputItem(outputItem),
  ],
  ['OpenAI Chat tool-call id suffix', () => randomBytes(4).toString('hex'), () => undefined],
];

process.stdout.write('| per stream | before µs | after µs |\n|---|---|---|\n');
for (const [name, before, after] of cases) {
  // Interleaved twice; the lower of each pair is kept (the machine is shared).
  const first = [time(before), time(after)];
  const second = [time(before), time(after)];
  const beforeUs = Math.min(first[0] as number, second[0] as number);
  const afterUs = Math.min(first[1] as number, second[1] as number);
  process.stdout.write(`| ${name} | ${beforeUs.toFixed(2)} | ${afterUs.toFixed(2)} |\n`);
}
