import pg from 'pg';
import { CHANNELS } from '../store/postgres-run-log.js';
import { LocalRunSignals, type RunControl } from './run-signals.js';

/**
 * Signals between gateways through PostgreSQL LISTEN/NOTIFY on one dedicated connection: run
 * changes (NOTIFYed by the log's own writes), control messages, and dispatch wake-ups for the
 * queue. A dropped connection is reopened after a second; waiters re-read the log meanwhile.
 */
export class PostgresRunSignals extends LocalRunSignals {
  override readonly shared = true;
  readonly #url: string;
  readonly #pool: pg.Pool;
  #client: pg.Client | undefined;
  #closed = false;
  #dispatchListeners = new Set<() => void>();

  constructor(url: string, pool: pg.Pool) {
    super();
    this.#url = url;
    this.#pool = pool;
  }

  /** Connects and listens (resolves once listening). */
  async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url });
    client.on('error', () => this.#reconnect(client));
    client.on('end', () => this.#reconnect(client));
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      if (message.channel === CHANNELS.events) this.emitter.emit(`changed:${payload}`);
      else if (message.channel === CHANNELS.dispatch) for (const listener of this.#dispatchListeners) listener();
      else if (message.channel === CHANNELS.control) {
        try {
          const { runId, kind } = JSON.parse(payload) as { runId: string; kind: RunControl };
          this.emitter.emit('control', runId, kind);
        } catch {
          // Not ours.
        }
      }
    });
    await client.connect();
    for (const channel of Object.values(CHANNELS)) await client.query(`LISTEN ${channel}`);
    this.#client = client;
  }

  #reconnect(client: pg.Client): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => undefined);
    const retry = () => {
      if (this.#closed) return;
      this.open().catch(() => setTimeout(retry, 1000).unref());
    };
    setTimeout(retry, 1000).unref();
  }

  /** Called when any gateway dispatched a run. */
  onDispatch(listener: () => void): () => void {
    this.#dispatchListeners.add(listener);
    return () => this.#dispatchListeners.delete(listener);
  }

  override async control(runId: string, kind: RunControl): Promise<void> {
    await this.#pool.query('SELECT pg_notify($1, $2)', [CHANNELS.control, JSON.stringify({ runId, kind })]);
  }

  override async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
    this.#dispatchListeners.clear();
    await super.close();
  }
}
