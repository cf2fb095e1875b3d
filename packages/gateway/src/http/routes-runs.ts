import type { Message } from '@boxagnts/api';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AnswerQuestionResponse, RunQuestionsResponse } from './api-types/runs.js';
import type { GatewayEnv, GatewayServices } from './gateway-env.js';
import { parseWith, readJsonBody } from './read-body.js';
import { injectSchema, sessionIdSchema, startRunSchema } from './schemas.js';
import { resumeCursor, streamRunEvents } from './sse.js';

/** An answer body before it is checked against its question (see `checkAnswer`). */
const answerBodySchema = z.record(z.string(), z.unknown(), {
  error: 'must be a JSON object: {"decision": "allow" | "deny"} or {"answer": ...}',
});

/** Runs: start on a session, read, wait, stream/resume events, cancel, inject a message, answer its questions. */
export function runRoutes(services: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.post('/sessions/:id/runs', async (context) => {
    const body = await readJsonBody(context, startRunSchema);
    const sessionId = parseWith(sessionIdSchema, context.req.param('id'), 'session id');
    const input: Message[] = [{ role: 'user', content: body.input }];
    const record = await services.runs.start({
      sessionId,
      input,
      ...(body.agent === undefined ? {} : { agent: body.agent }),
      ...(body.model === undefined ? {} : { model: body.model }),
      ...(body.budgetUsd === undefined ? {} : { budgetUsd: body.budgetUsd }),
      ...(body.maxTurns === undefined ? {} : { maxTurns: body.maxTurns }),
      ...(body.busy === undefined ? {} : { busy: body.busy }),
      ...(body.onRestart === undefined ? {} : { onRestart: body.onRestart }),
      // A client over HTTP can answer the run's questions: they wait for it (see GET /runs/:id/questions).
      origin: { kind: 'user', attended: true },
    });
    const mode = body.mode ?? 'background';
    if (mode === 'stream') return streamRunEvents(context, services.runs, record.id, 0, services.heartbeatMs);
    if (mode === 'wait') return context.json(await services.runs.wait(record.id, context.req.raw.signal));
    return context.json(record, 202, { location: `/runs/${record.id}` });
  });
  app.get('/sessions/:id/runs', async (context) =>
    context.json({ runs: await services.runs.list({ sessionId: context.req.param('id') }) }),
  );
  app.get('/runs/:id', async (context) => context.json(await services.runs.get(context.req.param('id'))));
  app.get('/runs/:id/wait', async (context) =>
    context.json(await services.runs.wait(context.req.param('id'), context.req.raw.signal)),
  );
  app.get('/runs/:id/events', (context) =>
    streamRunEvents(context, services.runs, context.req.param('id'), resumeCursor(context), services.heartbeatMs),
  );
  app.post('/runs/:id/cancel', async (context) => context.json(await services.runs.cancel(context.req.param('id'))));
  app.post('/runs/:id/messages', async (context) => {
    const body = await readJsonBody(context, injectSchema);
    const event = await services.runs.inject(context.req.param('id'), {
      role: 'user',
      content: body.content,
    } as Message);
    return context.json({ seq: event.seq }, 202);
  });
  app.get('/runs/:id/questions', async (context) =>
    context.json({ questions: await services.runs.questions(context.req.param('id')) } satisfies RunQuestionsResponse),
  );
  app.post('/runs/:id/questions/:questionId/answer', async (context) => {
    const body = await readJsonBody(context, answerBodySchema);
    await services.runs.answer(context.req.param('id'), context.req.param('questionId'), body);
    return context.json({ ok: true } satisfies AnswerQuestionResponse);
  });
  return app;
}
