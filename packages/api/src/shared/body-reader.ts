import type { BatchSourceControl } from './batch-source.js';
import type { BodyHandlers } from './body-handlers.js';
import { isDispatchedBody, SUBSCRIBE_BODY } from './dispatched-body.js';
import type { ByteStream } from './read-event-stream.js';

export type { BodyHandlers } from './body-handlers.js';

/** The parts of a Node `Readable` (undici's body is one) that {@link readBody} drives. */
interface ReadableLike {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(error?: Error): unknown;
}

function isReadable(body: ByteStream): body is ByteStream & ReadableLike {
  const candidate = body as Partial<ReadableLike>;
  return (
    typeof candidate.on === 'function' &&
    typeof candidate.off === 'function' &&
    typeof candidate.pause === 'function' &&
    typeof candidate.resume === 'function' &&
    typeof candidate.destroy === 'function'
  );
}

/** The error a body that closed before its end is reported with (as a `Readable` iterator does). */
function prematureClose(): Error {
  return Object.assign(new Error('The response body was closed before it ended.'), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
}

/**
 * Reads a response body by callbacks, one call per network read. A `sendStreamRequest` body is
 * subscribed to directly (its dispatch handler calls `chunk`); a Node `Readable` (undici's body) is
 * read through its `data` events. Either way the read path is a plain function call, with no async
 * iterator, no promise and no microtask hop per read, which is what a live token stream pays for
 * on every event. Any other async iterable is pumped by a loop.
 */
export function readBody(body: ByteStream, handlers: BodyHandlers): BatchSourceControl {
  // `sendStreamRequest`'s body: chunks come straight from undici's dispatch handler.
  if (isDispatchedBody(body)) return body[SUBSCRIBE_BODY](handlers);
  return isReadable(body) ? readReadable(body, handlers) : pumpIterable(body, handlers);
}

function readReadable(body: ByteStream & ReadableLike, handlers: BodyHandlers): BatchSourceControl {
  let done = false;
  const finish = () => {
    done = true;
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('close', onClose);
    // The `error` listener stays (guarded by `done`): an `error` with no listener would crash the process.
  };
  const fail = (error: unknown) => {
    if (done) return;
    finish();
    handlers.error(error);
  };
  const onData = (chunk: Uint8Array | string) => {
    if (done) return;
    let more: boolean;
    try {
      more = handlers.chunk(chunk);
    } catch (error) {
      finish();
      body.destroy();
      handlers.error(error);
      return;
    }
    if (!more && !done) {
      finish();
      body.destroy();
    }
  };
  const onEnd = () => {
    if (done) return;
    finish();
    try {
      handlers.end();
    } catch (error) {
      handlers.error(error);
    }
  };
  const onClose = () => fail(prematureClose());
  body.on('error', fail);
  body.on('end', onEnd);
  body.on('close', onClose);
  body.on('data', onData);
  return {
    pause: () => {
      if (!done) body.pause();
    },
    resume: () => {
      if (!done) body.resume();
    },
    cancel: () => {
      if (done) return;
      finish();
      body.destroy();
    },
  };
}

function pumpIterable(body: ByteStream, handlers: BodyHandlers): BatchSourceControl {
  const iterator = body[Symbol.asyncIterator]();
  let done = false;
  let paused: { promise: Promise<void>; resolve(): void } | undefined;
  const stop = () => {
    done = true;
    paused?.resolve();
    iterator.return?.()?.catch(() => undefined);
  };
  void (async () => {
    try {
      while (!done) {
        if (paused !== undefined) await paused.promise;
        if (done) return;
        const next = await iterator.next();
        if (done) return;
        if (next.done === true) {
          done = true;
          try {
            handlers.end();
          } catch (error) {
            handlers.error(error);
          }
          return;
        }
        let more: boolean;
        try {
          more = handlers.chunk(next.value);
        } catch (error) {
          stop();
          handlers.error(error);
          return;
        }
        if (!more && !done) stop();
      }
    } catch (error) {
      // The body itself failed (a cut connection, an abort).
      if (done) return;
      stop();
      handlers.error(error);
    }
  })();
  return {
    pause: () => {
      if (done || paused !== undefined) return;
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((settle) => {
        resolve = settle;
      });
      paused = { promise, resolve };
    },
    resume: () => {
      const current = paused;
      paused = undefined;
      current?.resolve();
    },
    cancel: () => {
      if (!done) stop();
    },
  };
}
