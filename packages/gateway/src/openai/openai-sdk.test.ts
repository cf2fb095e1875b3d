import OpenAI from 'openai';
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

async function start(script: object) {
  current = await createTestWorkspace(script as never);
  gateway = await startGateway({ workspace: current.workspace, port: 0, sandbox: { bash: false, jsExec: false } });
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: 'unused-on-loopback', maxRetries: 0 });
}

describe('the OpenAI-compatible endpoint, with the official openai SDK as client', () => {
  it('lists the visible agents as models', async () => {
    const client = await start({ steps: [] });
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(expect.arrayContaining(['build', 'plan', 'explore']));
  });

  it('answers a chat completion, running the agent tools on the server, with usage', async () => {
    const client = await start({
      steps: [
        {
          content: [{ type: 'tool_call', name: 'read', input: { file_path: 'fact.txt' } }],
          usage: { input: 100, output: 10 },
        },
        { text: 'The fact is: water is wet.', usage: { input: 150, output: 8 } },
      ],
    });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(`${current?.workspace.paths.root}/fact.txt`, 'water is wet');
    const completion = await client.chat.completions.create({
      model: 'build',
      messages: [
        { role: 'system', content: 'Be brief. SYSTEM-MARKER' },
        { role: 'user', content: 'What does fact.txt say?' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('The fact is: water is wet.');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 250, completion_tokens: 18, total_tokens: 268 });
    expect(current?.mock.requests[1]?.rawBody).toContain('water is wet');
    expect(current?.mock.requests[0]?.rawBody).toContain('SYSTEM-MARKER');
  });

  it('streams a chat completion with usage in the last chunk', async () => {
    const client = await start({
      chunking: { textDelta: 3 },
      steps: [{ text: 'streamed answer', usage: { input: 40, output: 5 } }],
    });
    const stream = await client.chat.completions.create({
      model: 'build',
      messages: [{ role: 'user', content: 'Stream please.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('streamed answer');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 5 });
  });

  it('refuses an unknown model and client-side tool messages with OpenAI-style errors', async () => {
    const client = await start({ steps: [] });
    const unknown = await client.chat.completions
      .create({ model: 'gpt-nope', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    const tools = await client.chat.completions
      .create({
        model: 'build',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'tool', tool_call_id: 'x', content: 'r' },
        ],
      })
      .catch((error: unknown) => error);
    expect(tools).toBeInstanceOf(OpenAI.BadRequestError);
    expect(String((tools as Error).message)).toContain('tool');
  });
});
