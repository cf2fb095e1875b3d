import { describe, expect, it } from 'vitest';
import { applyRunEvent, emptyRunView, type RunView, runTotals } from './run-view';

type Event = [type: string, data: Record<string, unknown>];

/** A run as the gateway streams it: thinking, a tool call, text over two turns, usage, a question, the end. */
const events: Event[] = [
  ['run-started', {}],
  ['thinking-delta', { turn: 1, delta: 'Let me ' }],
  ['thinking-delta', { turn: 1, delta: 'look.' }],
  ['tool-start', { toolCallId: 't1', name: 'read', input: { file_path: 'a.txt' } }],
  ['question', { questionId: 'q1', kind: 'permission', toolName: 'read', question: 'Read a.txt?' }],
  ['question-answered', { questionId: 'q1', by: 'user', decision: 'allow' }],
  ['tool-end', { toolCallId: 't1', result: { content: [{ type: 'text', text: 'A' }] }, durationMs: 12 }],
  ['usage', { turn: 1, model: 'm', usage: { input: { total: 100 }, output: { total: 10 } }, costUsd: 0.001 }],
  ['text-delta', { turn: 2, delta: 'The file ' }],
  ['text-delta', { turn: 2, delta: 'says A.' }],
  ['usage', { turn: 2, model: 'm', usage: { input: { total: 120 }, output: { total: 5 } }, costUsd: 0.002 }],
  ['run-end', { status: 'completed', reason: 'end_turn' }],
];

function fold(from: RunView, list: readonly Event[], firstId: number): RunView {
  return list.reduce((view, [type, data], index) => applyRunEvent(view, type, data, String(firstId + index)), from);
}

describe('the chat run view', () => {
  it('folds a run into items (thinking, the tool card with its result, text per turn), calls and the end', () => {
    const view = fold(emptyRunView('r1', 'queued', 'Read a.txt'), events, 1);
    expect(view.status).toBe('completed');
    expect(view.reason).toBe('end_turn');
    expect(view.questions).toEqual([]);
    expect(view.items).toEqual([
      { kind: 'user', text: 'Read a.txt' },
      { kind: 'thinking', turn: 1, text: 'Let me look.' },
      {
        kind: 'tool',
        toolCallId: 't1',
        name: 'read',
        input: { file_path: 'a.txt' },
        state: 'done',
        result: 'A',
        durationMs: 12,
        subAgentEvents: 0,
      },
      { kind: 'text', turn: 2, text: 'The file says A.' },
    ]);
    expect(runTotals(view)).toEqual({ inputTokens: 220, outputTokens: 15, costUsd: 0.003 });
    expect(view.lastEventId).toBe(String(events.length));
  });

  it('resumes from a view kept in storage at any event with nothing lost or repeated', () => {
    const whole = fold(emptyRunView('r1', 'queued', 'Read a.txt'), events, 1);
    for (let cut = 0; cut <= events.length; cut++) {
      const kept = JSON.parse(
        JSON.stringify(fold(emptyRunView('r1', 'queued', 'Read a.txt'), events.slice(0, cut), 1)),
      );
      expect(fold(kept, events.slice(cut), cut + 1), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('ignores events it has already folded (a stream replayed after a reconnect, a second subscription)', () => {
    const once = fold(emptyRunView('r1', 'queued', 'Read a.txt'), events, 1);
    const twice = fold(once, events, 1);
    expect(twice).toEqual(once);
    const overlapping = fold(
      fold(emptyRunView('r1', 'queued', 'Read a.txt'), events.slice(0, 9), 1),
      events.slice(5),
      6,
    );
    expect(overlapping).toEqual(once);
  });

  it('keeps an open question until it is answered and drops open questions when the run ends', () => {
    const asked = fold(emptyRunView('r1', 'running', undefined), events.slice(0, 5), 1);
    expect(asked.questions.map((question) => question.questionId)).toEqual(['q1']);
    const ended = applyRunEvent(asked, 'run-end', { status: 'cancelled' }, '6');
    expect(ended.questions).toEqual([]);
    expect(ended.status).toBe('cancelled');
    expect(ended.items.find((item) => item.kind === 'tool')).toMatchObject({ state: 'error' });
  });
});
