import { startMockServer } from '@boxagnts/testkit';
import { anthropicExchange } from './anthropic-exchange.js';
import { openaiExchange } from './openai-exchange.js';
import { demoScript } from './weather.js';

/** What the demo did: both final answers and how many requests the mock served. */
export interface DemoResult {
  anthropicAnswer: string;
  openaiAnswer: string;
  requests: number;
}

/** Start the mock, run both exchanges, print as events stream, and stop the mock. */
export async function runDemo(print: (line: string) => void): Promise<DemoResult> {
  const mock = await startMockServer({ script: demoScript() });
  try {
    print(`boxagnts-mock listening on ${mock.url}`);
    print('\nAnthropic Messages, through @anthropic-ai/sdk:');
    const anthropicAnswer = await anthropicExchange(mock.url, print);
    print(`  => ${anthropicAnswer}`);
    print('\nOpenAI Chat Completions, through openai:');
    const openaiAnswer = await openaiExchange(`${mock.url}/v1`, print);
    print(`  => ${openaiAnswer}`);
    print(`\n${mock.requests.length} requests served: ${mock.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    return { anthropicAnswer, openaiAnswer, requests: mock.requests.length };
  } finally {
    await mock.close();
  }
}
