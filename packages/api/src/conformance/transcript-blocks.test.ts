import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmRequest, UserContentBlock } from '../index.js';
import { ADAPTERS } from '../test/conformance-adapters.js';

// Every adapter, over real HTTP to the mock: transcript blocks reach the vendor as text (or not at
// all, for the UI-only kinds), and a document's context is sent where the vendor has a field for it.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer();
});

afterAll(async () => {
  await mock.close();
});

const content: UserContentBlock[] = [
  { type: 'user_command', name: 'review', args: 'src --strict' },
  { type: 'user_local_command_output', command: 'git status', output: 'nothing to commit' },
  { type: 'user_memory_input', key: 'style', value: 'tabs-never-spaces' },
  { type: 'system_api_error', message: 'API-ERROR-CANARY overloaded', retrySecs: 5 },
  { type: 'collapsed_read_search', toolName: 'grep', paths: ['COLLAPSED-CANARY.ts'] },
  { type: 'task_assignment', id: 'T-7', subject: 'Fix the parser', description: 'Lines over 1 MB crash it.' },
  {
    type: 'document',
    title: 'Spec',
    context: 'CONTEXT-CANARY the 2024 revision',
    source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQK' },
  },
  { type: 'text', text: 'Go.' },
];

const request: LlmRequest = { model: 'transcript-model', maxOutputTokens: 64, messages: [{ role: 'user', content }] };

const kept = [
  'The user invoked the command /review src --strict',
  'The user ran a local command: git status',
  'nothing to commit',
  'The user asked you to remember: style: tabs-never-spaces',
  'Task T-7 is assigned to you: Fix the parser',
  'Lines over 1 MB crash it.',
  'Go.',
];

describe.each(ADAPTERS)('$name sends transcript blocks as documented', (adapter) => {
  it('as text, leaving out system_api_error and collapsed_read_search, with the document context', async () => {
    mock.setScript({ steps: [{ text: 'ok' }], repeatLast: true });
    mock.clearRequests();
    const response = await adapter.create(mock.url).createMessage(request);
    expect(response.message.content).toEqual([expect.objectContaining({ type: 'text', text: 'ok' })]);
    const [recorded] = mock.requests;
    const body = recorded?.rawBody ?? '';
    for (const text of kept) expect(body).toContain(JSON.stringify(text).slice(1, -1));
    expect(body).not.toContain('API-ERROR-CANARY');
    expect(body).not.toContain('COLLAPSED-CANARY');
    expect(body).toContain('CONTEXT-CANARY the 2024 revision');
  });
});

describe('the document context rides in the vendor field where there is one', () => {
  it('anthropic-messages: document.context', async () => {
    mock.setScript({ steps: [{ text: 'ok' }], repeatLast: true });
    mock.clearRequests();
    const adapter = ADAPTERS.find((entry) => entry.name === 'anthropic-messages');
    await adapter?.create(mock.url).createMessage(request);
    const body = mock.requests[0]?.body as { messages: Array<{ content: Array<Record<string, unknown>> }> };
    const document = body.messages[0]?.content.find((block) => block.type === 'document');
    expect(document).toMatchObject({ title: 'Spec', context: 'CONTEXT-CANARY the 2024 revision' });
    expect(JSON.stringify(body)).not.toContain('About the next document');
  });

  it('bedrock-converse: document.context', async () => {
    mock.setScript({ steps: [{ text: 'ok' }], repeatLast: true });
    mock.clearRequests();
    const adapter = ADAPTERS.find((entry) => entry.name === 'bedrock-converse');
    await adapter?.create(mock.url).createMessage(request);
    const body = mock.requests[0]?.body as { messages: Array<{ content: Array<Record<string, unknown>> }> };
    const document = body.messages[0]?.content.find((block) => 'document' in block)?.document;
    expect(document).toMatchObject({ format: 'pdf', context: 'CONTEXT-CANARY the 2024 revision' });
    expect(JSON.stringify(body)).not.toContain('About the next document');
  });
});
