/** Options of {@link createAsyncQueue}. */
export interface AsyncQueueOptions {
  /** Called once when the consumer stops early (`break`, `return()`), e.g. to abort the producer's request. */
  onCancel?(): void;
}

/**
 * A single-consumer queue that turns push callbacks into an `AsyncIterable`: values pushed before
 * the consumer asks are buffered (the producer is never blocked), and `end()` / `fail()` finish the
 * iteration after the buffered values are delivered.
 */
export interface AsyncQueue<T> extends AsyncIterable<T> {
  push(value: T): void;
  /** No more values; iteration completes after the buffer drains. */
  end(): void;
  /** Iteration throws `error` after the buffer drains. */
  fail(error: unknown): void;
  /** Whether `end`, `fail` or a consumer cancel has closed the queue. */
  readonly closed: boolean;
}

type Waiter<T> = { resolve(result: IteratorResult<T>): void; reject(error: unknown): void };

/**
 * Creates an {@link AsyncQueue}.
 *
 * @example
 * const queue = createAsyncQueue<SseEvent>();
 * const parser = createSseParser({ onEvent: (event) => queue.push(event) });
 * socket.on('data', (chunk) => parser.feed(chunk)).on('end', () => queue.end());
 * for await (const event of queue) handle(event);
 */
export function createAsyncQueue<T>(options: AsyncQueueOptions = {}): AsyncQueue<T> {
  const buffer: T[] = [];
  let head = 0;
  let waiter: Waiter<T> | undefined;
  let finished = false;
  let failure: { error: unknown } | undefined;
  let iterated = false;

  function settleWaiter(): void {
    if (waiter === undefined) return;
    const current = waiter;
    if (head < buffer.length) {
      waiter = undefined;
      current.resolve({ value: takeNext(), done: false });
    } else if (failure !== undefined) {
      waiter = undefined;
      const { error } = failure;
      failure = undefined;
      current.reject(error);
    } else if (finished) {
      waiter = undefined;
      current.resolve({ value: undefined, done: true });
    }
  }

  function takeNext(): T {
    const value = buffer[head] as T;
    buffer[head] = undefined as T;
    head += 1;
    if (head > 1024 && head * 2 > buffer.length) {
      buffer.splice(0, head);
      head = 0;
    }
    return value;
  }

  const iterator: AsyncIterator<T> = {
    next() {
      if (waiter !== undefined) return Promise.reject(new Error('AsyncQueue supports one pending next() at a time.'));
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        waiter = { resolve, reject };
        settleWaiter();
      });
    },
    return() {
      if (!finished) {
        finished = true;
        options.onCancel?.();
      }
      buffer.length = 0;
      head = 0;
      failure = undefined;
      return Promise.resolve({ value: undefined, done: true });
    },
  };

  return {
    push(value) {
      if (finished) return;
      buffer.push(value);
      settleWaiter();
    },
    end() {
      if (finished) return;
      finished = true;
      settleWaiter();
    },
    fail(error) {
      if (finished) return;
      finished = true;
      failure = { error };
      settleWaiter();
    },
    get closed() {
      return finished;
    },
    [Symbol.asyncIterator]() {
      if (iterated) throw new Error('AsyncQueue can be iterated only once.');
      iterated = true;
      return iterator;
    },
  };
}
