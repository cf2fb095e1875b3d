import { Agent } from 'undici';

/** Timeouts and pool size of the HTTP agent every provider request goes through. */
export interface HttpAgentOptions {
  /** TCP + TLS connect timeout. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Time from sending the request to receiving the response headers. Default 10 minutes, because a
   * non-streaming call to a reasoning model can think that long; streams are guarded by stall timers.
   */
  headersTimeoutMs?: number;
  /** Longest silence between two body chunks. Default 5 minutes (stall timers usually fire first). */
  bodyTimeoutMs?: number;
  /** How long an idle pooled connection is kept open for reuse. Default 30 s. */
  keepAliveTimeoutMs?: number;
  /** Most connections per origin; unlimited when omitted. */
  connectionsPerOrigin?: number;
}

/** The defaults of {@link HttpAgentOptions}. */
export const DEFAULT_HTTP_AGENT_OPTIONS: Readonly<Required<Omit<HttpAgentOptions, 'connectionsPerOrigin'>>> = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 600_000,
  bodyTimeoutMs: 300_000,
  keepAliveTimeoutMs: 30_000,
};

/**
 * Creates an undici `Agent` (a keep-alive connection pool) with provider-friendly timeouts.
 *
 * @example
 * const agent = createHttpAgent({ connectTimeoutMs: 5_000 });
 * const fetch = createProviderFetch({ dispatcher: agent });
 */
export function createHttpAgent(options: HttpAgentOptions = {}): Agent {
  const settings = { ...DEFAULT_HTTP_AGENT_OPTIONS, ...withoutUndefined(options) };
  return new Agent({
    connect: { timeout: settings.connectTimeoutMs },
    headersTimeout: settings.headersTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    ...(options.connectionsPerOrigin === undefined ? {} : { connections: options.connectionsPerOrigin }),
  });
}

let sharedAgent: Agent | undefined;

/**
 * The process-wide agent adapters use unless given their own, created on first use so importing
 * this package opens nothing.
 */
export function getSharedHttpAgent(): Agent {
  sharedAgent ??= createHttpAgent();
  return sharedAgent;
}

/**
 * Replaces the shared agent with one built from `options`; the previous agent finishes its in-flight
 * requests and then closes.
 *
 * @example
 * configureSharedHttpAgent({ connectTimeoutMs: 3_000, connectionsPerOrigin: 16 });
 */
export function configureSharedHttpAgent(options: HttpAgentOptions): Agent {
  const previous = sharedAgent;
  sharedAgent = createHttpAgent(options);
  previous?.close().catch(() => undefined);
  return sharedAgent;
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
