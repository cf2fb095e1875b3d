import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../gateway.js';
import type { RunQuestion } from '../http/api-types/runs.js';
import { readSse, type SseMessage } from '../test/sse-client.js';
import { createTestWorkspace, type TestWorkspace } from '../test/test-workspace.js';

/** Each prompt marker gets its tool call; once a tool result is in the request, the model says it is done. */
const script = {
  rules: [
    { match: { contains: '"tool_result"' }, steps: [{ text: 'done after the tool' }], repeatLast: true },
    {
      match: { contains: 'READ-NOTES' },
      steps: [{ content: [{ type: 'tool_call', name: 'read', input: { file_path: 'notes.md' } }] }],
      repeatLast: true,
    },
    {
      match: { contains: 'ASK-COLOUR' },
      steps: [
        {
          content: [
            {
              type: 'tool_call',
              name: 'ask_user_question',
              input: {
                question: 'Which colour should the logo be?',
                options: [{ label: 'Red', description: 'Warm' }, { label: 'Blue' }],
              },
            },
          ],
        },
      ],
      repeatLast: true,
    },
    {
      match: { contains: 'ASK-FREE' },
      steps: [{ content: [{ type: 'tool_call', name: 'ask_user_question', input: { question: 'Your name?' } }] }],
      repeatLast: true,
    },
  ],
  steps: [{ text: 'plain answer' }],
  repeatLast: true,
};

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

interface Harness {
  workspace: TestWorkspace;
  gateway: RunningGateway;
  /** Starts a run over HTTP and reads its stream until its first `question` event. */
  ask(session: string, prompt: string): Promise<{ runId: string; question: RunQuestion; lastId: string }>;
  answer(runId: string, questionId: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** The rest of the run's stream after `lastId`, to its end. */
  rest(runId: string, lastId: string): Promise<SseMessage[]>;
}

async function harness(config: Record<string, unknown> = {}): Promise<Harness> {
  const workspace = await createTestWorkspace(script as never, { permissions: { ask: ['read(notes.md)'] }, ...config });
  await writeFile(join(workspace.workspace.paths.root, 'notes.md'), 'SECRET-NOTES-TEXT\n');
  const gateway = await startGateway({
    workspace: workspace.workspace,
    port: 0,
    sandbox: { bash: false, jsExec: false },
  });
  return {
    workspace,
    gateway,
    async ask(session, prompt) {
      const started = await fetch(`${gateway.url}/sessions/${session}/runs`, json({ input: prompt }));
      expect(started.status).toBe(202);
      const runId = ((await started.json()) as { id: string }).id;
      const read = await readSse(await fetch(`${gateway.url}/runs/${runId}/events`), (m) => m.event === 'question');
      const last = read.messages.at(-1) as SseMessage;
      expect(last.event).toBe('question');
      return { runId, question: JSON.parse(last.data) as RunQuestion, lastId: last.id as string };
    },
    answer: (runId, questionId, body, headers = {}) =>
      fetch(`${gateway.url}/runs/${runId}/questions/${questionId}/answer`, json(body, headers)),
    async rest(runId, lastId) {
      const response = await fetch(`${gateway.url}/runs/${runId}/events`, { headers: { 'last-event-id': lastId } });
      return (await readSse(response)).messages;
    },
  };
}

function toolResultText(messages: SseMessage[]): string {
  const end = messages.find((message) => message.event === 'tool-end');
  return end === undefined ? '' : JSON.stringify(JSON.parse(end.data).result.content);
}

function dataOf(messages: SseMessage[], event: string): Record<string, unknown>[] {
  return messages.filter((message) => message.event === event).map((message) => JSON.parse(message.data));
}

async function errorOf(response: Response): Promise<{ status: number; reason: string; message: string }> {
  const body = (await response.json()) as { error: { reason: string; message: string } };
  return { status: response.status, ...body.error };
}

describe('questions of a run watched over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h?.gateway.close();
    await h?.workspace.close();
  });

  it('an ask rule stores a question, waits, and the answer route resumes the run: allow runs the tool, deny refuses it with the reason', async () => {
    const { runId, question, lastId } = await h.ask('perm', 'READ-NOTES please');
    expect(question).toMatchObject({
      kind: 'permission',
      toolName: 'read',
      input: { file_path: 'notes.md' },
      rule: 'read(notes.md)',
    });
    expect(question.question).toContain('"read" on file_path: notes.md');
    expect(question.questionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(question.expiresAt as string)).toBeGreaterThan(Date.now() + 60_000);

    // A page that reloads (or a second tab) finds the open question, and the stream replays it.
    const listed = (await (await fetch(`${h.gateway.url}/runs/${runId}/questions`)).json()) as {
      questions: RunQuestion[];
    };
    expect(listed.questions).toEqual([question]);
    const record = (await (await fetch(`${h.gateway.url}/runs/${runId}`)).json()) as { status: string };
    expect(record.status).toBe('running');

    // Bad answers: typed 400s that say what to send.
    const wrongShape = await errorOf(await h.answer(runId, question.questionId, { answer: 'yes' }));
    expect(wrongShape).toMatchObject({ status: 400, reason: 'invalid-request' });
    expect(wrongShape.message).toContain('permission request: send {"decision": "allow" | "deny"}');
    const wrongValue = await errorOf(await h.answer(runId, question.questionId, { decision: 'maybe' }));
    expect(wrongValue).toMatchObject({ status: 400 });
    expect(wrongValue.message).toContain('decision: must be "allow" or "deny"');
    expect((await errorOf(await h.answer(runId, question.questionId, ['allow']))).status).toBe(400);
    // A guessed question id, and one of an unknown run: 404.
    const guessed = await errorOf(await h.answer(runId, crypto.randomUUID(), { decision: 'allow' }));
    expect(guessed).toMatchObject({ status: 404, reason: 'not-found' });
    expect((await h.answer('no-such-run', question.questionId, { decision: 'allow' })).status).toBe(404);
    // A page on another origin cannot answer (the API's Origin guard).
    const crossOrigin = await h.answer(
      runId,
      question.questionId,
      { decision: 'allow' },
      { origin: 'http://evil.example' },
    );
    expect(crossOrigin.status).toBe(403);
    expect((await (await fetch(`${h.gateway.url}/runs/${runId}/questions`)).json()) as object).toEqual({
      questions: [question],
    });

    const allowed = await h.answer(runId, question.questionId, { decision: 'allow' });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ ok: true });
    const again = await errorOf(await h.answer(runId, question.questionId, { decision: 'deny' }));
    expect(again).toMatchObject({ status: 409, reason: 'conflict' });
    expect(again.message).toContain('already answered (by user)');

    const rest = await h.rest(runId, lastId);
    expect(dataOf(rest, 'question-answered')).toEqual([
      { questionId: question.questionId, by: 'user', decision: 'allow' },
    ]);
    expect(toolResultText(rest)).toContain('SECRET-NOTES-TEXT');
    expect(dataOf(rest, 'run-end')[0]).toMatchObject({ status: 'completed' });
    expect(await (await fetch(`${h.gateway.url}/runs/${runId}/questions`)).json()).toEqual({ questions: [] });
    expect((await h.answer(runId, question.questionId, { decision: 'allow' })).status).toBe(409);

    // Deny: the model reads the reason; another run's question id is not this run's.
    const second = await h.ask('perm-deny', 'READ-NOTES again');
    expect((await h.answer(runId, second.question.questionId, { decision: 'deny' })).status).toBe(404);
    const denied = await h.answer(second.runId, second.question.questionId, {
      decision: 'deny',
      reason: 'Not on Fridays',
    });
    expect(denied.status).toBe(200);
    const deniedRest = await h.rest(second.runId, second.lastId);
    const text = toolResultText(deniedRest);
    expect(text).toContain('Not on Fridays');
    expect(text).not.toContain('SECRET-NOTES-TEXT');
    expect(dataOf(deniedRest, 'question-answered')[0]).toMatchObject({
      by: 'user',
      decision: 'deny',
      reason: 'Not on Fridays',
    });
  });

  it('ask_user_question with options: a label must be one of them; the answer reaches the tool', async () => {
    const { runId, question, lastId } = await h.ask('choice', 'ASK-COLOUR now');
    expect(question).toMatchObject({
      kind: 'question',
      question: 'Which colour should the logo be?',
      options: [{ label: 'Red', description: 'Warm' }, { label: 'Blue' }],
    });
    const notAnOption = await errorOf(await h.answer(runId, question.questionId, { answer: 'Green' }));
    expect(notAnOption).toMatchObject({ status: 400, reason: 'invalid-request' });
    expect(notAnOption.message).toContain('must be one of "Red", "Blue"');
    const list = await errorOf(await h.answer(runId, question.questionId, { answer: ['Red', 'Blue'] }));
    expect(list.message).toContain('must be one label, not a list');
    const decision = await errorOf(await h.answer(runId, question.questionId, { decision: 'allow' }));
    expect(decision.message).toContain('not a permission request');
    expect((await h.answer(runId, question.questionId, { answer: 'Blue' })).status).toBe(200);
    const rest = await h.rest(runId, lastId);
    expect(toolResultText(rest)).toContain('The user answered: Blue');
    expect(dataOf(rest, 'question-answered')).toEqual([
      { questionId: question.questionId, by: 'user', answer: 'Blue' },
    ]);

    const free = await h.ask('free', 'ASK-FREE now');
    expect(free.question).toMatchObject({ kind: 'question', question: 'Your name?' });
    expect(free.question.options).toBeUndefined();
    expect((await h.answer(free.runId, free.question.questionId, { answer: '  ' })).status).toBe(400);
    expect((await h.answer(free.runId, free.question.questionId, { answer: 'Ada Lovelace' })).status).toBe(200);
    expect(toolResultText(await h.rest(free.runId, free.lastId))).toContain('The user answered: Ada Lovelace');
  });

  it('cancelling a run answers its open question by cancel; answering afterwards is a conflict', async () => {
    const { runId, question, lastId } = await h.ask('cancel', 'READ-NOTES then stop');
    const cancelled = await fetch(`${h.gateway.url}/runs/${runId}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    const rest = await h.rest(runId, lastId);
    expect(dataOf(rest, 'question-answered')[0]).toMatchObject({ questionId: question.questionId, by: 'cancel' });
    expect(dataOf(rest, 'run-end')[0]).toMatchObject({ status: 'cancelled' });
    expect(toolResultText(rest)).not.toContain('SECRET-NOTES-TEXT');
    const late = await errorOf(await h.answer(runId, question.questionId, { decision: 'allow' }));
    expect(late).toMatchObject({ status: 409 });
  });

  it('runs with nobody over HTTP (cron, embedders) never wait: ask rules are refused and questions get "no user"', async () => {
    for (const origin of [
      { kind: 'user' as const },
      { kind: 'cron' as const, jobId: 'job-1', scheduledFor: Date.now() },
    ]) {
      const read = await h.gateway.runs.start({
        sessionId: `unattended-${origin.kind}`,
        input: [{ role: 'user', content: 'READ-NOTES unattended' }],
        origin,
      });
      const ended = await h.gateway.runs.wait(read.id);
      expect(ended.status).toBe('completed');
      const events = await h.gateway.runs.log.events(read.id, 0, 10_000);
      expect(events.some((event) => event.type === 'question')).toBe(false);
      const end = events.find((event) => event.type === 'tool-end');
      expect(JSON.stringify(end?.data)).toContain('no user is available in this run');
    }
    const colour = await h.gateway.runs.start({
      sessionId: 'unattended-colour',
      input: [{ role: 'user', content: 'ASK-COLOUR unattended' }],
    });
    await h.gateway.runs.wait(colour.id);
    const events = await h.gateway.runs.log.events(colour.id, 0, 10_000);
    expect(events.some((event) => event.type === 'question')).toBe(false);
    expect(JSON.stringify(events.find((event) => event.type === 'tool-end')?.data)).toContain(
      'No user is available to answer in this run',
    );
  });
});

describe('a question nobody answers', () => {
  it('is answered by timeout after gateway.questions.timeoutMs: a permission is denied with a reason, a question gets "no user"', async () => {
    const h = await harness({ gateway: { questions: { timeoutMs: 1000 } } });
    try {
      const permission = await h.ask('t1', 'READ-NOTES slowly');
      const rest = await h.rest(permission.runId, permission.lastId);
      expect(dataOf(rest, 'question-answered')[0]).toMatchObject({
        questionId: permission.question.questionId,
        by: 'timeout',
        decision: 'deny',
      });
      expect(toolResultText(rest)).toContain('nobody answered the permission question within 1 s');
      expect(dataOf(rest, 'run-end')[0]).toMatchObject({ status: 'completed' });
      expect((await h.answer(permission.runId, permission.question.questionId, { decision: 'allow' })).status).toBe(
        409,
      );

      const question = await h.ask('t2', 'ASK-COLOUR slowly');
      const questionRest = await h.rest(question.runId, question.lastId);
      expect(dataOf(questionRest, 'question-answered')[0]).toEqual({
        questionId: question.question.questionId,
        by: 'timeout',
      });
      expect(toolResultText(questionRest)).toContain('The user did not answer (no user answered within 1 s)');
    } finally {
      await h.gateway.close();
      await h.workspace.close();
    }
  });
});

describe('a gateway restarted while a question waits', () => {
  it('resumes the run from its stored history and closes the question the stopped attempt left open', async () => {
    const h = await harness();
    try {
      const { runId, question } = await h.ask('restart', 'READ-NOTES before the restart');
      await h.gateway.close();
      const next = await startGateway({
        workspace: h.workspace.workspace,
        port: 0,
        sandbox: { bash: false, jsExec: false },
      });
      try {
        expect(next.recovered.resumed).toEqual([runId]);
        const ended = await next.runs.wait(runId);
        expect(ended.status).toBe('completed');
        const events = await next.runs.log.events(runId, 0, 10_000);
        const types = events.map((event) => event.type);
        expect(types.indexOf('run-interrupted')).toBeGreaterThan(types.indexOf('question'));
        expect(events.find((event) => event.type === 'question-answered')?.data).toMatchObject({
          questionId: question.questionId,
          by: 'cancel',
        });
        expect(await next.runs.questions(runId)).toEqual([]);
        const late = await fetch(
          `${next.url}/runs/${runId}/questions/${question.questionId}/answer`,
          json({ decision: 'allow' }),
        );
        expect(late.status).toBe(409);
      } finally {
        await next.close();
      }
    } finally {
      await h.gateway.close();
      await h.workspace.close();
    }
  });
});
