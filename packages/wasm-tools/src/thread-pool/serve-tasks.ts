import { parentPort } from 'node:worker_threads';
import type { ThreadHostMessage, ThreadReplyMessage } from './thread-protocol.js';

/**
 * Runs one task inside a worker thread; `signal` aborts when the host cancels it. A handler served
 * with `{ reportsRunning: true }` calls `running()` once its preparation is done (building an
 * engine, say) and the task's own work begins: the host's deadline for the task runs from then.
 */
export type ThreadTaskHandler<Payload, Value> = (
  payload: Payload,
  signal: AbortSignal,
  running: () => void,
) => Promise<Value> | Value;

/** Options of {@link serveThreadTasks}. */
export interface ServeThreadTasksOptions {
  /**
   * The handler calls `running()` itself when its own work begins. Default false: the task counts
   * as running from when the handler is called. Either way a handler that answers without calling
   * it is fine; until `running()`, the task is bounded by the host's start timeout.
   */
  reportsRunning?: boolean;
}

/**
 * Drops everything the worker would print: the host pipes a worker's stdout and stderr without
 * reading them, so nothing a library or a guest prints may pile up there.
 */
function silenceOutput(): void {
  const discard = () => undefined;
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table'] as const) {
    console[method] = discard;
  }
  process.stdout.write = () => true;
  process.stderr.write = () => true;
}

/**
 * The worker side of a {@link ThreadPool}: tells the host when each task is running (see
 * {@link ServeThreadTasksOptions.reportsRunning}), answers it with the handler's value (or the
 * message of what it threw) and aborts a task's signal when the host cancels it. Call it once, at
 * the top level of a worker entry.
 *
 * @throws {Error} when called outside a worker thread.
 */
export function serveThreadTasks<Payload, Value>(
  handler: ThreadTaskHandler<Payload, Value>,
  options: ServeThreadTasksOptions = {},
): void {
  const port = parentPort;
  if (port === null) throw new Error('serveThreadTasks must be called inside a worker thread.');
  silenceOutput();
  const running = new Map<number, AbortController>();
  port.on('message', (message: ThreadHostMessage) => {
    if (message.type === 'cancel') {
      running.get(message.id)?.abort(new Error('cancelled by the host'));
      return;
    }
    const controller = new AbortController();
    running.set(message.id, controller);
    const reply = (answer: ThreadReplyMessage) => {
      running.delete(message.id);
      port.postMessage(answer);
    };
    let reported = false;
    const report = () => {
      if (reported || !running.has(message.id)) return;
      reported = true;
      port.postMessage({ id: message.id, running: true } satisfies ThreadReplyMessage);
    };
    if (options.reportsRunning !== true) report();
    Promise.resolve()
      .then(() => handler(message.payload as Payload, controller.signal, report))
      .then(
        (value) => reply({ id: message.id, ok: true, value }),
        (error: unknown) =>
          reply({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
  });
}
