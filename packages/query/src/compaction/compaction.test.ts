import type { Message } from '@boxagnts/api';
import { defineTool, textResult } from '@boxagnts/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemorySessionStore } from '../session/session-store.js';
import { collect, type Harness, startHarness } from '../test/harness.js';
import { findRecentCut } from './find-recent-cut.js';
import { summarizeOldToolResults } from './summarize-tool-results.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usage = { input: 100, output: 20 };
type Body = { messages: Array<{ role: string; content: unknown }>; system?: unknown; tools?: unknown };
const read = defineTool({
  name: 'read',
  description: 'Read a file.',
  inputSchema: z.object({ file_path: z.string() }),
  permission: 'read-only',
  execute: async () => textResult('ok'),
});

function toolHistory(turns: number, resultChars: number, textChars = 0): Message[] {
  const history: Message[] = [{ role: 'user', content: 'Refactor the project; keep the public API.' }];
  for (let index = 0; index < turns; index++) {
    history.push({
      role: 'assistant',
      content: [
        ...(textChars > 0 ? [{ type: 'text' as const, text: `step ${index} ${'t'.repeat(textChars)}` }] : []),
        { type: 'tool_use', id: `call_${index}`, name: 'read', input: { file_path: `src/file${index}.ts` } },
      ],
    });
    history.push({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: `call_${index}`, content: `line\n`.repeat(resultChars / 5) }],
    });
  }
  history.push({ role: 'user', content: 'go on' });
  return history;
}

describe('compaction', () => {
  it('first replaces old tool results with one-line summaries, keeping the recent turns whole', async () => {
    harness = await startHarness({ steps: [{ text: 'done', usage }] });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: toolHistory(6, 2000),
      tools: [read],
      toolContext: { root: harness.root, sessionId: 'c1' },
      config: { model: 'claude-sonnet-4-6', contextWindow: 4000, compaction: { keepRecentTurns: 2 } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(
      events.some(
        (event) => event.type === 'status' && event.kind === 'compacted' && event.data?.phase === 'tool-results',
      ),
    ).toBe(true);
    const sent = JSON.stringify((harness.mock.requests[0]?.body as Body | undefined)?.messages);
    expect(sent).toContain('[Earlier tool result from read: src/file0.ts, 401 lines]');
    // The two most recent turns keep their results whole; no summarising call was needed.
    expect(sent).not.toContain('[Earlier tool result from read: src/file5.ts');
    expect(harness.mock.requests).toHaveLength(1);
  });

  it('never separates a tool call from its result at the cut', () => {
    const history = toolHistory(5, 100);
    for (let keep = 1; keep <= 5; keep++) {
      const cut = findRecentCut(history, keep);
      expect(history[cut]?.role).toBe('assistant');
      // Every tool_use after the cut has its result after the cut too.
      const after = history.slice(cut);
      const uses = after.flatMap((message) =>
        message.role === 'assistant'
          ? message.content
              .filter((block) => block.type === 'tool_use')
              .map((block) => (block.type === 'tool_use' ? block.id : ''))
          : [],
      );
      const results = after.flatMap((message) =>
        message.role === 'user' && typeof message.content !== 'string'
          ? message.content
              .filter((block) => block.type === 'tool_result')
              .map((block) => (block.type === 'tool_result' ? block.toolUseId : ''))
          : [],
      );
      expect(results).toEqual(uses);
    }
    const { messages, summarized } = summarizeOldToolResults(history, findRecentCut(history, 2));
    expect(summarized).toBe(3);
    expect(messages).toHaveLength(history.length);
  });

  it('rejects a summary that calls a tool and retries once without tools; re-injects AGENTS.md and skills; stores a compaction marker', async () => {
    harness = await startHarness({
      rules: [
        {
          match: { contains: 'Summarise this conversation' },
          steps: [
            { content: [{ type: 'tool_call', name: 'read', input: { file_path: 'x' } }], usage },
            { text: 'SUMMARY after the retry.', usage },
          ],
        },
        { match: { protocol: 'anthropic' }, steps: [{ text: 'continued', usage }] },
      ],
    });
    const history = toolHistory(6, 500, 3000);
    const skillCall: Message = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'call_skill', name: 'skill', input: { skill: 'code-review' } }],
    };
    history.splice(1, 0, skillCall, {
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: 'call_skill', content: 'Review steps...' }],
    });
    const store = createMemorySessionStore();
    const { outcome } = await collect({
      provider: harness.provider,
      messages: history,
      tools: [read],
      toolContext: { root: harness.root, sessionId: 'c2' },
      config: {
        model: 'claude-sonnet-4-6',
        contextWindow: 6000,
        agentsMd: 'Always run the tests.',
        compaction: { keepRecentTurns: 1 },
      },
      session: { store, sessionId: 'c2' },
    });
    expect(outcome.reason).toBe('end_turn');
    const summaries = harness.mock.requests.filter((request) =>
      JSON.stringify(request.body).includes('Summarise this conversation'),
    );
    expect(summaries).toHaveLength(2);
    expect((summaries[0]?.body as Body | undefined)?.tools).toBeUndefined();
    expect(JSON.stringify(summaries[1]?.body)).toContain('Tools are not available in this call');
    const final = JSON.stringify((harness.mock.requests.at(-1)?.body as Body | undefined)?.messages);
    expect(final).toContain('SUMMARY after the retry.');
    expect(final).toContain('Skills in use: code-review');
    expect(final).toContain('AGENTS.md');
    expect(final).toContain('Refactor the project; keep the public API.');
    const stored = await store.load('c2');
    const marker = stored.find((entry) => entry.compaction !== undefined);
    expect(marker?.compaction?.keptMessages).toBeGreaterThan(0);
    expect(JSON.stringify(marker?.message)).toContain('SUMMARY after the retry.');
  });

  it('stops compacting in circles when compaction cannot bring the context under the threshold', async () => {
    // The provider keeps reporting a nearly full context, whatever the history holds.
    const full = { input: 3900, output: 20 };
    harness = await startHarness({
      rules: [
        {
          match: { contains: 'Summarise this conversation' },
          steps: [{ text: `HUGE SUMMARY ${'s'.repeat(20_000)}`, usage: full }],
          repeatLast: true,
        },
        {
          match: { protocol: 'anthropic' },
          steps: [
            { content: [{ type: 'tool_call', name: 'read', input: { file_path: 'a' } }], usage: full },
            { content: [{ type: 'tool_call', name: 'read', input: { file_path: 'b' } }], usage: full },
            { content: [{ type: 'tool_call', name: 'read', input: { file_path: 'c' } }], usage: full },
            { text: 'end', usage: full },
          ],
        },
      ],
    });
    const { outcome, events } = await collect({
      provider: harness.provider,
      messages: toolHistory(4, 200, 4000),
      tools: [read],
      toolContext: { root: harness.root, sessionId: 'c3' },
      config: { model: 'claude-sonnet-4-6', contextWindow: 4000, compaction: { keepRecentTurns: 1 } },
    });
    expect(outcome.reason).toBe('end_turn');
    expect(events.some((event) => event.type === 'status' && event.data?.phase === 'stalled')).toBe(true);
    const summaryCalls = harness.mock.requests.filter((request) =>
      JSON.stringify(request.body).includes('Summarise this conversation'),
    );
    expect(summaryCalls.length).toBeLessThanOrEqual(2);
  });
});
