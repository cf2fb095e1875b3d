import { redactSecrets } from '@boxagnts/api';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { dashboardRoutes, isDashboardRequest } from '../dashboard/dashboard-routes.js';
import { GatewayError, isGatewayError } from '../gateway-error.js';
import { type GuardOptions, securityGuard } from '../security/security-middleware.js';
import { SECURITY_DEFAULTS } from '../security/security-options.js';
import type { GatewayEnv, GatewayServices } from './gateway-env.js';
import { catalogRoutes } from './routes-catalog.js';
import { fileRoutes } from './routes-files.js';
import { runRoutes } from './routes-runs.js';
import { sessionRoutes } from './routes-sessions.js';
import { settingsRoutes } from './routes-settings.js';

/** Receives one structured line per request and per failure; secrets are already masked. */
export type GatewayLog = (entry: Record<string, unknown>) => void;

/** Options of {@link createGatewayApp}. */
export interface GatewayAppOptions {
  services: GatewayServices;
  guard: GuardOptions;
  /** Extra routes mounted after the guard (the OpenAI-compatible endpoint). */
  extraRoutes?: readonly Hono<GatewayEnv>[];
  log?: GatewayLog;
  /** Secret values to mask in log lines and error messages. */
  knownSecrets?: () => readonly string[];
  /** The built dashboard's folder, served at `/ui/`; `false` serves none (then `/` is a 404 like any unknown path). */
  dashboard?: { folder: string | undefined } | false;
}

/** The gateway's Hono app: guard, routes and one JSON error shape (`{ error: { reason, message, issues } }`). */
export function createGatewayApp(options: GatewayAppOptions): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const log = options.log ?? (() => {});
  const mask = (text: string) => redactSecrets(text, options.knownSecrets?.() ?? []);
  app.onError((error, context) => {
    if (isGatewayError(error)) {
      const headers: Record<string, string> =
        error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
      if (error.reason === 'unauthorized') headers['www-authenticate'] = 'Bearer';
      return context.json(
        { error: { reason: error.reason, message: mask(error.message), issues: error.issues } },
        error.status as 400,
        headers,
      );
    }
    log({
      level: 'error',
      message: 'request failed',
      path: context.req.path,
      error: mask(String((error as Error)?.stack ?? error)),
    });
    return context.json(
      {
        error: {
          reason: 'internal',
          message: 'The gateway failed on this request; its log has the details.',
          issues: [],
        },
      },
      500,
    );
  });
  app.notFound((context) =>
    context.json(
      { error: { reason: 'not-found', message: `No route ${context.req.method} ${context.req.path}.`, issues: [] } },
      404,
    ),
  );
  app.use('*', async (context, next) => {
    const started = Date.now();
    await next();
    log({
      level: 'info',
      message: 'request',
      method: context.req.method,
      path: context.req.path,
      status: context.res.status,
      ms: Date.now() - started,
    });
  });
  const dashboard = options.dashboard ?? false;
  app.use('*', securityGuard(dashboard === false ? options.guard : { ...options.guard, isPublic: isDashboardRequest }));
  const maxSize = options.guard.maxBodyBytes ?? SECURITY_DEFAULTS.maxBodyBytes;
  app.use(
    '*',
    bodyLimit({
      maxSize,
      onError: () => {
        throw new GatewayError({
          reason: 'payload-too-large',
          message: `The body is over ${maxSize} bytes: send less.`,
        });
      },
    }),
  );
  app.get('/health', (context) => context.json({ ok: true }));
  const services = options.services;
  for (const routes of [
    sessionRoutes(services),
    runRoutes(services),
    fileRoutes(services),
    catalogRoutes(services),
    settingsRoutes(services, options.guard.tokens),
    ...(options.extraRoutes ?? []),
    ...(dashboard === false ? [] : [dashboardRoutes(dashboard)]),
  ]) {
    app.route('/', routes);
  }
  return app;
}
