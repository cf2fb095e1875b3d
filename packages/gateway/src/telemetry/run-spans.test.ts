import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

let current: TestWorkspace | undefined;
let cleanupGlobal: (() => void) | undefined;
afterEach(async () => {
  cleanupGlobal?.();
  cleanupGlobal = undefined;
  await current?.close();
  current = undefined;
});

const script = {
  steps: [
    {
      content: [
        { type: 'tool_call' as const, name: 'read', input: { file_path: 'notes.md' } },
        { type: 'tool_call' as const, name: 'read', input: { file_path: 'missing.md' } },
      ],
      usage: { input: 1200, output: 30 },
    },
    { text: 'The notes say: buy milk.', usage: { input: 1400, output: 12 } },
  ],
};

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider, tracer: provider.getTracer('test') };
}

describe('OpenTelemetry spans of a run', () => {
  it('records invoke_agent, chat and execute_tool spans with GenAI attributes, nested under the run', async () => {
    current = await createTestWorkspace(script);
    await writeFile(join(current.workspace.paths.root, 'notes.md'), 'buy milk\n');
    const { exporter, tracer } = tracing();
    const agent = await createAgent({ workspace: current.workspace, telemetry: { tracer } });
    const run = agent.run('What do my notes say?', { sessionId: 'traced-1' });
    expect((await run.outcome).reason).toBe('end_turn');
    await agent.close();

    const spans = exporter.getFinishedSpans();
    const names = spans.map((span) => span.name).sort();
    expect(names).toEqual([
      'chat claude-sonnet-4-6',
      'chat claude-sonnet-4-6',
      'execute_tool read',
      'execute_tool read',
      'invoke_agent build',
    ]);
    const root = spans.find((span) => span.name === 'invoke_agent build')!;
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'build',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.conversation.id': 'traced-1',
      'gen_ai.usage.input_tokens': 2600,
      'gen_ai.usage.output_tokens': 42,
      'boxagnts.run.reason': 'end_turn',
    });
    for (const span of spans.filter((span) => span !== root)) {
      expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
      expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
    }
    const calls = spans.filter((span) => span.name.startsWith('chat'));
    expect(calls.map((span) => span.attributes['gen_ai.usage.input_tokens']).sort()).toEqual([1200, 1400]);
    expect(calls.every((span) => span.attributes['gen_ai.operation.name'] === 'chat')).toBe(true);
    const tools = spans.filter((span) => span.name === 'execute_tool read');
    expect(new Set(tools.map((span) => span.attributes['gen_ai.tool.call.id'])).size).toBe(2);
    expect(tools.map((span) => span.attributes['error.type'] ?? null).sort()).toEqual(['tool_error', null].sort());
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('buy milk');
  });

  it('records nothing by default, and closes every span when the caller stops reading early', async () => {
    current = await createTestWorkspace({ steps: [...script.steps, ...script.steps] });
    await writeFile(join(current.workspace.paths.root, 'notes.md'), 'buy milk\n');
    const { exporter, provider } = tracing();
    // A host registered an SDK globally: without the switch nothing is recorded; with `true` its tracer is used.
    trace.setGlobalTracerProvider(provider);
    cleanupGlobal = () => trace.disable();
    const plain = await createAgent({ workspace: current.workspace });
    expect((await plain.run('Notes?').outcome).reason).toBe('end_turn');
    await plain.close();
    expect(exporter.getFinishedSpans()).toEqual([]);

    const agent = await createAgent({ workspace: current.workspace, telemetry: true });
    for await (const event of agent.run('Notes?')) {
      if (event.type === 'tool-start') break;
    }
    await agent.close();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toContain('invoke_agent build');
    expect(spans.every((span) => span.ended)).toBe(true);
  });

  it('is switched on by the workspace config alone (gateway.telemetry), with the global tracer', async () => {
    current = await createTestWorkspace(
      { steps: [...script.steps, ...script.steps] },
      { gateway: { telemetry: true } },
    );
    await writeFile(join(current.workspace.paths.root, 'notes.md'), 'buy milk\n');
    const { exporter, provider } = tracing();
    trace.setGlobalTracerProvider(provider);
    cleanupGlobal = () => trace.disable();
    const agent = await createAgent({ workspace: current.workspace });
    expect((await agent.run('Notes?').outcome).reason).toBe('end_turn');
    await agent.close();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain('invoke_agent build');

    // An explicit `telemetry: false` of the embedding app wins over the config.
    exporter.reset();
    const quiet = await createAgent({ workspace: current.workspace, telemetry: false });
    expect((await quiet.run('Notes?').outcome).reason).toBe('end_turn');
    await quiet.close();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
