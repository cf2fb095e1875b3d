import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describeMcpFailure, isConnectionLostError, isUndeliveredError } from './classify-mcp-failure.js';
import { toConnectionError } from './connection-failure.js';
import { type CreatedTransport, createTransport } from './create-transport.js';
import { isMcpConnectionError, McpConnectionError } from './mcp-errors.js';
import { loadedMcpSdk, loadMcpSdk } from './mcp-sdk.js';
import type { ResolvedMcpServerConfig } from './mcp-server-config.js';

/**
 * Where a server connection stands:
 * `idle` (never connected), `connecting` (first start), `connected`, `disconnected` (dropped; the
 * next call reconnects), `reconnecting`, `failed` (the last connect or reconnect cycle failed; the
 * next call tries again), `closed` (by `close()`; final).
 */
export type McpConnectionState =
  | 'idle'
  | 'connecting'
  | 'connected'
  | 'disconnected'
  | 'reconnecting'
  | 'failed'
  | 'closed';

/** Options of {@link McpConnection}. */
export interface McpConnectionOptions {
  /** Name and version this client reports to servers. */
  clientInfo: { name: string; version: string };
  /** Wait before the second reconnect attempt; doubles for each later one. */
  reconnectDelayMs: number;
  /** Called with each new client before it connects (to install notification handlers). */
  configureClient(client: Client): void;
  /** Called after a reconnect succeeded (not after the first connect). */
  onReconnected(): void;
  onStderr?: (text: string) => void;
}

interface Live {
  client: Client;
  created: CreatedTransport;
}

function delay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts (the work itself goes on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Lets buffered stderr chunks of an exited child arrive before its tail is read. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * One MCP server connection with its life cycle: start, handshake (bounded by `connectTimeoutMs`),
 * drop detection, bounded reconnects with backoff, and one resend of a request that never reached
 * the server. Everything the source does goes through {@link McpConnection.run}.
 */
export class McpConnection {
  state: McpConnectionState = 'idle';
  reconnects = 0;
  failedAttempts = 0;
  lastError: string | undefined;
  private live: Live | undefined;
  private lastCreated: CreatedTransport | undefined;
  private connecting: Promise<Client> | undefined;
  private everConnected = false;

  constructor(
    private readonly config: ResolvedMcpServerConfig,
    private readonly options: McpConnectionOptions,
  ) {}

  /** The current client, if connected. */
  get client(): Client | undefined {
    return this.state === 'connected' ? this.live?.client : undefined;
  }

  /** The child's pid (stdio), the session id (HTTP) and the stderr tail of the current or last connection. */
  get transportInfo(): { pid?: number; sessionId?: string; stderrTail: string } {
    const created = this.live?.created;
    const pid = this.state === 'connected' ? created?.pid() : undefined;
    const sessionId = this.state === 'connected' ? created?.sessionId() : undefined;
    return {
      ...(pid === undefined ? {} : { pid }),
      ...(sessionId === undefined ? {} : { sessionId }),
      stderrTail: this.lastCreated?.stderrTail() ?? '',
    };
  }

  /**
   * A connected client: the current one, or a new connection (one attempt the first time, up to
   * `maxReconnects` attempts with backoff after a drop, at least `minimumAttempts`). Throws an
   * {@link McpConnectionError}.
   */
  ensureClient(signal?: AbortSignal, minimumAttempts = 0): Promise<Client> {
    if (this.state === 'closed') {
      return Promise.reject(
        new McpConnectionError({
          server: this.config.name,
          transport: this.config.transport.type,
          message: `MCP server "${this.config.name}" was closed; create a new source to use it again.`,
        }),
      );
    }
    const client = this.client;
    if (client !== undefined) return Promise.resolve(client);
    if (this.connecting === undefined) {
      const attempts = Math.max(minimumAttempts, this.everConnected ? this.config.maxReconnects : 1);
      this.connecting = this.connectCycle(attempts).finally(() => {
        this.connecting = undefined;
      });
    }
    return untilAborted(this.connecting, signal);
  }

  /**
   * Runs one request on a connected client. A request that never reached the server (connection
   * gone, session expired) is sent once more on a new connection; a request lost with the connection
   * after it was sent is not (it may have taken effect), but the next call reconnects.
   */
  async run<T>(operation: (client: Client) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const client = await this.ensureClient(signal);
    try {
      return await operation(client);
    } catch (error) {
      if (signal?.aborted || this.state === 'closed') throw error;
      if (!isUndeliveredError(error)) {
        if (isConnectionLostError(error)) this.markLost(client, error);
        throw error;
      }
      this.markLost(client, error);
      const again = await this.ensureClient(signal);
      try {
        return await operation(again);
      } catch (retryError) {
        if (isConnectionLostError(retryError)) this.markLost(again, retryError);
        throw retryError;
      }
    }
  }

  /** Drops the current connection (if any) and connects anew, with the reconnect attempts. */
  async reconnect(): Promise<void> {
    if (this.state === 'closed') await this.ensureClient();
    if (this.connecting !== undefined) await this.connecting.catch(() => undefined);
    const live = this.live;
    if (live !== undefined && this.state === 'connected') this.markLost(live.client, new Error('reconnect requested'));
    this.everConnected = true;
    await this.ensureClient(undefined, 1);
  }

  /** Ends the connection for good: terminates the HTTP session, ends the child process (stdin, SIGTERM, SIGKILL). */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    await this.connecting?.catch(() => undefined);
    const live = this.live;
    if (live === undefined) return;
    const transport = live.client.transport;
    const HttpTransport = loadedMcpSdk()?.StreamableHTTPClientTransport;
    if (HttpTransport !== undefined && transport instanceof HttpTransport && transport.sessionId !== undefined) {
      await untilAborted(transport.terminateSession(), AbortSignal.timeout(2_000)).catch(() => undefined);
    }
    await live.client.close().catch(() => undefined);
  }

  /** A method, so checks after an await are not narrowed away by the compiler. */
  private isClosed(): boolean {
    return this.state === 'closed';
  }

  private markLost(client: Client, error: unknown): void {
    if (this.live?.client !== client || this.state !== 'connected') return;
    this.state = 'disconnected';
    this.lastError = describeMcpFailure(error);
    void client.close().catch(() => undefined);
  }

  private async connectCycle(attempts: number): Promise<Client> {
    const reconnecting = this.everConnected;
    this.state = reconnecting ? 'reconnecting' : 'connecting';
    let lastError: McpConnectionError | undefined;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt > 0) await delay(this.options.reconnectDelayMs * 2 ** (attempt - 1), undefined);
      if (this.isClosed()) break;
      try {
        const client = await this.attempt();
        this.state = 'connected';
        this.failedAttempts = 0;
        if (reconnecting) {
          this.reconnects += 1;
          this.options.onReconnected();
        }
        this.everConnected = true;
        return client;
      } catch (error) {
        lastError = isMcpConnectionError(error) ? error : toConnectionError(this.config, error, '');
        this.failedAttempts += 1;
        this.lastError = lastError.message;
      }
    }
    if (!this.isClosed()) this.state = 'failed';
    throw (
      lastError ??
      new McpConnectionError({
        server: this.config.name,
        transport: this.config.transport.type,
        message: this.isClosed()
          ? `MCP server "${this.config.name}" was closed while connecting.`
          : `MCP server "${this.config.name}" dropped its connection and maxReconnects is 0, so it is not reconnected. Call reconnect() or raise maxReconnects.`,
      })
    );
  }

  private async attempt(): Promise<Client> {
    const sdk = await loadMcpSdk();
    const created = createTransport(sdk, this.config.transport, this.options.onStderr);
    this.lastCreated = created;
    const client = new sdk.Client(this.options.clientInfo, { capabilities: {} });
    this.options.configureClient(client);
    client.onclose = () => {
      if (this.live?.client === client && this.state === 'connected') {
        this.state = 'disconnected';
        this.lastError = 'the connection closed (the server process exited or the stream ended)';
      }
    };
    try {
      await client.connect(created.transport, { timeout: this.config.connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      await settle();
      throw toConnectionError(this.config, error, created.stderrTail());
    }
    if (this.isClosed()) {
      await client.close().catch(() => undefined);
      throw new Error('closed while connecting');
    }
    const previous = this.live;
    this.live = { client, created };
    if (previous !== undefined && previous.client !== client) void previous.client.close().catch(() => undefined);
    return client;
  }
}
