import type { MockScript } from '@boxagnts/testkit';

/**
 * The model's part when no API key is set, for any number of questions: a request without a tool
 * result asks `lookup_order` for order 1042; a request that carries the result answers from it.
 */
export function shopScript(): MockScript {
  return {
    chunking: { textDelta: 6, argumentsDelta: 16, delayMs: 3 },
    rules: [
      {
        // Only a request that carries a tool result holds a tool_use_id.
        match: { contains: '"tool_use_id"' },
        steps: [{ text: 'Order 1042 has shipped; it arrives on Thursday.', usage: { input: 900, output: 14 } }],
        repeatLast: true,
      },
    ],
    steps: [
      {
        content: [{ type: 'tool_call', name: 'lookup_order', input: { order: '1042' } }],
        usage: { input: 700, output: 20 },
      },
    ],
    repeatLast: true,
  };
}
