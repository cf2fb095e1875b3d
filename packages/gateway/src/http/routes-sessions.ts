import { Hono } from 'hono';
import { GatewayError } from '../gateway-error.js';
import type {
  SessionDetailJson,
  SessionJson,
  SessionListJson,
  SessionSearchJson,
  StoredMessageJson,
} from './api-types/index.js';
import type { GatewayEnv, GatewayServices } from './gateway-env.js';
import { parseWith, readJsonBody } from './read-body.js';
import {
  createSessionSchema,
  forkSessionSchema,
  listQuerySchema,
  renameSessionSchema,
  searchQuerySchema,
} from './schemas.js';
import { storeCall } from './store-call.js';
import { linkSubAgentSessions } from './sub-agent-links.js';

/** Sessions: list, create, load, rename, fork, delete, search, export and import (JSONL). */
export function sessionRoutes(services: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const sessions = () => services.workspace.store.sessions;
  const requireSession = async (id: string) => {
    const record = await sessions().get(id);
    if (record === undefined)
      throw new GatewayError({ reason: 'not-found', message: `No session "${id}": list them with GET /sessions.` });
    return record;
  };
  app.get('/sessions', async (context) => {
    const query = parseWith(listQuerySchema, context.req.query(), 'query');
    const list: SessionListJson = { sessions: await sessions().list(query) };
    return context.json(list);
  });
  app.post('/sessions', async (context) => {
    const body = await readJsonBody(context, createSessionSchema);
    if (body.id !== undefined && (await sessions().get(body.id)) !== undefined) {
      throw new GatewayError({
        reason: 'conflict',
        message: `A session "${body.id}" exists: pick another id or omit it.`,
      });
    }
    return context.json(await storeCall(() => sessions().create(body)), 201);
  });
  app.get('/sessions/search', async (context) => {
    const query = parseWith(searchQuerySchema, context.req.query(), 'query');
    const options = { limit: query.limit, ...(query.sessionId === undefined ? {} : { sessionId: query.sessionId }) };
    const found: SessionSearchJson = { hits: await storeCall(() => sessions().search(query.q, options)) };
    return context.json(found);
  });
  app.post('/sessions/import', async (context) => {
    const text = await context.req.text();
    const id = context.req.query('id');
    const imported: SessionJson = await storeCall(() => sessions().importJsonl(text, id === undefined ? {} : { id }));
    return context.json(imported, 201);
  });
  app.get('/sessions/:id', async (context) => {
    const record = await requireSession(context.req.param('id'));
    const [entries, children] = await Promise.all([sessions().load(record.id), sessions().children(record.id)]);
    const detail: SessionDetailJson = {
      session: record,
      messages: entries as StoredMessageJson[],
      children,
      subAgentSessions: linkSubAgentSessions(entries, children),
    };
    return context.json(detail);
  });
  app.patch('/sessions/:id', async (context) => {
    const body = await readJsonBody(context, renameSessionSchema);
    const record = await requireSession(context.req.param('id'));
    await storeCall(() => sessions().rename(record.id, body.title));
    const renamed: SessionJson = await requireSession(record.id);
    return context.json(renamed);
  });
  app.delete('/sessions/:id', async (context) => {
    const record = await requireSession(context.req.param('id'));
    await storeCall(() => sessions().delete(record.id));
    return context.body(null, 204);
  });
  app.post('/sessions/:id/fork', async (context) => {
    const body = await readJsonBody(context, forkSessionSchema);
    const record = await requireSession(context.req.param('id'));
    const options = body.title === undefined ? {} : { title: body.title };
    const fork: SessionJson = await storeCall(() => sessions().fork(record.id, body.atSeq, options));
    return context.json(fork, 201);
  });
  app.get('/sessions/:id/export', async (context) => {
    const record = await requireSession(context.req.param('id'));
    const text = await storeCall(() => sessions().exportJsonl(record.id));
    return context.body(text, 200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
  });
  return app;
}
