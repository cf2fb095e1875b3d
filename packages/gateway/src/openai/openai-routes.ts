import { randomUUID } from 'node:crypto';
import type { QueryOutcome } from '@boxagnts/query';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { GatewayError } from '../gateway-error.js';
import type { GatewayEnv, GatewayServices } from '../http/gateway-env.js';
import { readJsonBody } from '../http/read-body.js';
import { chatCompletionRequestSchema, toAgentMessages } from './openai-messages.js';

/** OpenAI's `finish_reason` for an outcome. */
export function finishReason(outcome: QueryOutcome): 'stop' | 'length' | 'content_filter' {
  if (outcome.reason === 'refusal') return 'content_filter';
  if (outcome.reason === 'max_turns' || outcome.reason === 'budget_exceeded' || outcome.reason === 'context_overflow')
    return 'length';
  return 'stop';
}

function usageOf(outcome: QueryOutcome) {
  const usage = outcome.usage.total.usage;
  return {
    prompt_tokens: usage.input.total,
    completion_tokens: usage.output.total,
    total_tokens: usage.input.total + usage.output.total,
    prompt_tokens_details: { cached_tokens: usage.input.cacheRead },
    completion_tokens_details: { reasoning_tokens: usage.output.reasoning },
  };
}

/**
 * The OpenAI-compatible endpoint: `GET /v1/models` lists the visible agents as models, and
 * `POST /v1/chat/completions` runs the named agent on the client's messages (tools run on the
 * server, each request in a new session), streamed or not, with usage.
 */
export function openaiRoutes(services: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  app.get('/v1/models', (context) =>
    context.json({
      object: 'list',
      data: Object.values(services.workspace.agents)
        .filter((agent) => agent.visible)
        .map((agent) => ({ id: agent.name, object: 'model', created: 0, owned_by: 'boxagnts' })),
    }),
  );
  app.post('/v1/chat/completions', async (context) => {
    const request = await readJsonBody(context, chatCompletionRequestSchema);
    if (services.workspace.agents[request.model] === undefined) {
      throw new GatewayError({
        reason: 'not-found',
        message: `No agent "${request.model}": list the models with GET /v1/models.`,
      });
    }
    const { system, messages } = toAgentMessages(request);
    const lease = await services.acquireAgent(request.model, undefined);
    const agent = lease.agent;
    const maxOutputTokens = request.max_completion_tokens ?? request.max_tokens;
    const controller = new AbortController();
    context.req.raw.signal.addEventListener('abort', () => controller.abort(), { once: true });
    const run = agent.run(messages, {
      sessionId: `openai-${randomUUID()}`,
      signal: controller.signal,
      config: {
        ...(system === undefined ? {} : { appendSystemPrompt: system }),
        ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      },
    });
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    if (request.stream !== true) {
      const outcome = await run.outcome.finally(lease.release);
      if (outcome.reason === 'error') {
        throw new GatewayError({ reason: 'internal', message: `The agent run failed: ${outcome.error}` });
      }
      return context.json({
        id,
        object: 'chat.completion',
        created,
        model: request.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: outcome.text, refusal: null },
            finish_reason: finishReason(outcome),
            logprobs: null,
          },
        ],
        usage: usageOf(outcome),
      });
    }
    return streamSSE(context, async (stream) => {
      stream.onAbort(() => controller.abort());
      const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: unknown) =>
        stream.writeSSE({
          data: JSON.stringify({
            id,
            object: 'chat.completion.chunk',
            created,
            model: request.model,
            choices: usage === undefined ? [{ index: 0, delta, finish_reason: finish, logprobs: null }] : [],
            ...(usage === undefined ? {} : { usage }),
          }),
        });
      await chunk({ role: 'assistant', content: '' }, null);
      let outcome: Awaited<typeof run.outcome>;
      try {
        for await (const event of run) {
          if (event.type === 'text-delta') await chunk({ content: event.delta }, null);
        }
        outcome = await run.outcome;
      } finally {
        lease.release();
      }
      await chunk({}, finishReason(outcome));
      if (request.stream_options?.include_usage !== false) await chunk({}, null, usageOf(outcome));
      await stream.writeSSE({ data: '[DONE]' });
    });
  });
  return app;
}
