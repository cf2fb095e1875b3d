import type { LlmProvider } from '@boxagnts/api';
import { type QueryOutcome, runQuery } from '@boxagnts/query';
import { type AnyTool, defineTool, errorResult, textResult } from '@boxagnts/tools';
import { createToolSet } from '@boxagnts/tools-manager';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { PAGE } from './page.js';

/** The host's own data, reached by the agent only through its tool. */
const ORDERS: Record<string, { status: string; eta: string }> = {
  '1042': { status: 'shipped', eta: 'Thursday' },
  '1043': { status: 'packing', eta: 'next week' },
};

/** A tool over the host's data: the agent can look orders up and do nothing else. */
export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Look up an order of the shop by its number: its status and expected delivery.',
  inputSchema: z.object({
    order: z
      .string()
      .regex(/^\d{1,10}$/)
      .describe('The order number, digits only'),
  }),
  permission: 'read-only',
  execute: async ({ order }) => {
    const found = ORDERS[order];
    return found
      ? textResult(`Order ${order}: ${found.status}, arrives ${found.eta}.`)
      : errorResult(`No order ${order}.`);
  },
});

export interface ShopAppOptions {
  provider: LlmProvider;
  model: string;
  /** Tools of the assistant (default: `lookup_order` through a tool set). */
  tools?: readonly AnyTool[];
  /** Called with every run's outcome (for the host's logs and metrics). */
  onOutcome?: (outcome: QueryOutcome) => void;
}

/**
 * Someone else's Hono app (a health route, a page) with the agent loop embedded in one route:
 * `GET /api/chat?prompt=...` runs `runQuery` and streams its events to the browser as
 * Server-Sent Events (`text`, `tool`, `done`); a closed connection cancels the run.
 */
export async function createShopApp(options: ShopAppOptions): Promise<{ app: Hono; close: () => Promise<void> }> {
  const toolSet = options.tools
    ? undefined
    : await createToolSet({ sources: [{ name: 'shop', kind: 'custom', load: async () => [lookupOrder] }] });
  const tools = options.tools ?? toolSet?.tools() ?? [];
  const app = new Hono();

  app.get('/', (context) => context.html(PAGE));
  app.get('/api/health', (context) => context.json({ ok: true }));

  app.get('/api/chat', (context) => {
    const prompt = context.req.query('prompt')?.trim() ?? '';
    if (prompt === '' || prompt.length > 4000) {
      return context.json({ error: 'Send a prompt of 1 to 4000 characters as ?prompt=' }, 400);
    }
    return streamSSE(context, async (stream) => {
      const controller = new AbortController();
      stream.onAbort(() => controller.abort(new Error('the browser closed the stream')));
      const run = runQuery({
        provider: options.provider,
        messages: [{ role: 'user', content: prompt }],
        tools,
        toolContext: { root: process.cwd(), sessionId: `web-${crypto.randomUUID()}` },
        config: {
          model: options.model,
          maxTurns: 6,
          budgetUsd: 0.2,
          systemPrompt: 'You are the assistant of a small web shop. Answer in one or two sentences.',
        },
        signal: controller.signal,
      });
      for await (const event of run) {
        if (event.type === 'done') options.onOutcome?.(event.outcome);
        if (event.type === 'text-delta') {
          await stream.writeSSE({ event: 'text', data: JSON.stringify({ delta: event.delta }) });
        } else if (event.type === 'tool-start') {
          await stream.writeSSE({
            event: 'tool',
            data: JSON.stringify({ name: event.name, summary: `looking up: ${JSON.stringify(event.input)}` }),
          });
        } else if (event.type === 'done') {
          const { reason, turns } = event.outcome;
          await stream.writeSSE({ event: 'done', data: JSON.stringify({ reason, turns, text: event.outcome.text }) });
        }
      }
    });
  });

  return { app, close: async () => await toolSet?.close() };
}
