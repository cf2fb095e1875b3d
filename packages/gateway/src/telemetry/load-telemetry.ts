import type { Tracer } from '@opentelemetry/api';
import { GatewayError } from '../gateway-error.js';
import type { OpenTelemetryApi } from './run-spans.js';

/**
 * Telemetry of {@link createAgent}: off by default; `true` uses the tracer of the globally
 * registered OpenTelemetry SDK (`@boxagnts/gateway`), or pass your own `tracer`.
 */
export type TelemetryOption = boolean | { tracer: Tracer };

/** The API and tracer spans are made with, or undefined when telemetry is off. */
export interface LoadedTelemetry {
  api: OpenTelemetryApi;
  tracer: Tracer;
}

/** Loads `@opentelemetry/api` (an optional peer) only when telemetry is on, with an error saying how to install it. */
export async function loadTelemetry(option: TelemetryOption | undefined): Promise<LoadedTelemetry | undefined> {
  if (option === undefined || option === false) return undefined;
  let api: OpenTelemetryApi;
  try {
    api = await import('@opentelemetry/api');
  } catch (cause) {
    throw new GatewayError({
      reason: 'configuration',
      message:
        'Telemetry is on but @opentelemetry/api cannot be loaded: add it to your app (pnpm add @opentelemetry/api).',
      cause,
    });
  }
  return { api, tracer: option === true ? api.trace.getTracer('@boxagnts/gateway') : option.tracer };
}
