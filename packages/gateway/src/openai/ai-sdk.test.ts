import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  await current?.close();
  gateway = undefined;
  current = undefined;
});

async function provider(script: object) {
  current = await createTestWorkspace(script as never);
  gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
  return createOpenAICompatible({ name: 'boxagnts', baseURL: `${gateway.url}/v1`, includeUsage: true });
}

describe("the OpenAI-compatible endpoint, with the AI SDK's OpenAI-compatible provider as client", () => {
  it('generates text with usage', async () => {
    const boxagnts = await provider({ steps: [{ text: 'Hello from the agent.', usage: { input: 30, output: 6 } }] });
    const result = await generateText({ model: boxagnts('build'), prompt: 'Say hello.', maxRetries: 0 });
    expect(result.text).toBe('Hello from the agent.');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 6 });
  });

  it('streams text with usage', async () => {
    const boxagnts = await provider({
      chunking: { textDelta: 4 },
      steps: [{ text: 'Streamed through the AI SDK.', usage: { input: 12, output: 7 } }],
    });
    const result = streamText({ model: boxagnts('build'), prompt: 'Stream.', maxRetries: 0 });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Streamed through the AI SDK.');
    expect(await result.usage).toMatchObject({ inputTokens: 12, outputTokens: 7 });
  });
});
