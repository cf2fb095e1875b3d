// wasi:io, wasi:clocks, wasi:random and the wasi:cli terminal resources for the worker process,
// written for a worker that runs one guest call at a time. preview2-shim's versions route every
// pollable through a helper thread that it starts when it is imported, and importing the shim
// also loads Node's http, crypto and worker_threads: together about a third of a new worker's
// start-up, on the path of every cold call. Components that import only what this file and
// worker-filesystem.mjs implement never load the shim; the rest (wasi:http, wasi:sockets, or
// anything unknown) still get the shim's implementation (worker-capabilities.mjs). Plain JS: this
// file runs in the forked worker (see worker.mjs).
import { hrtime } from 'node:process';

const symbolDispose = Symbol.dispose ?? Symbol.for('dispose');

/**
 * The interfaces (without versions) the worker implements without the shim. A component that
 * imports anything else is given the shim's implementation of everything, so resources of one
 * family (streams, pollables) never mix two classes the glue checks with `instanceof`.
 */
export const OWN_INTERFACES = new Set([
  'wasi:cli/environment',
  'wasi:cli/exit',
  'wasi:cli/stderr',
  'wasi:cli/stdin',
  'wasi:cli/stdout',
  'wasi:cli/terminal-input',
  'wasi:cli/terminal-output',
  'wasi:cli/terminal-stderr',
  'wasi:cli/terminal-stdin',
  'wasi:cli/terminal-stdout',
  'wasi:clocks/monotonic-clock',
  'wasi:clocks/wall-clock',
  'wasi:filesystem/preopens',
  'wasi:filesystem/types',
  'wasi:io/error',
  'wasi:io/poll',
  'wasi:io/streams',
  'wasi:random/insecure',
  'wasi:random/insecure-seed',
  'wasi:random/random',
]);

/** Whether every interface in `imports` (names without versions) is implemented here. */
export function coversImports(imports) {
  return Array.isArray(imports) && imports.every((name) => OWN_INTERFACES.has(name));
}

/** `wasi:io/error` error: what a stream's `last-operation-failed` carries. */
class IoError extends Error {
  constructor(payload) {
    super(payload instanceof Error ? payload.message : String(payload));
    this.payload = payload;
  }
  toDebugString() {
    return this.message;
  }
}

/** Blocks the thread for `nanoseconds` (the guest is blocked on the call anyway). */
const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepUntil(deadline) {
  for (;;) {
    const left = deadline - hrtime.bigint();
    if (left <= 0n) return;
    Atomics.wait(sleeper, 0, 0, Math.max(1, Math.ceil(Number(left) / 1e6)));
  }
}

/** A pollable that is ready from a monotonic instant on (0n: at once). */
class Pollable {
  constructor(deadline) {
    this.deadline = deadline;
  }
  ready() {
    return hrtime.bigint() >= this.deadline;
  }
  block() {
    sleepUntil(this.deadline);
  }
  [symbolDispose]() {}
}

/** A pollable that is ready at once (streams of this worker never wait). */
export function readyPollable() {
  return new Pollable(0n);
}

function poll(list) {
  if (list.length === 0) throw new Error('wasi:io/poll poll() was given no pollables.');
  let earliest;
  for (;;) {
    const ready = [];
    for (let index = 0; index < list.length; index++) {
      const pollable = list[index];
      if (!(pollable instanceof Pollable)) throw new TypeError('wasi:io/poll poll() was given a foreign pollable.');
      if (pollable.ready()) ready.push(index);
      else if (earliest === undefined || pollable.deadline < earliest) earliest = pollable.deadline;
    }
    if (ready.length > 0) return new Uint32Array(ready);
    sleepUntil(earliest);
  }
}

/** Base of the worker's input streams; a stream without an override is at its end. */
class InputStream {
  read() {
    throw { tag: 'closed' };
  }
  blockingRead() {
    throw { tag: 'closed' };
  }
  skip() {
    throw { tag: 'closed' };
  }
  blockingSkip() {
    throw { tag: 'closed' };
  }
  subscribe() {
    return readyPollable();
  }
  [symbolDispose]() {}
}

/** Base of the worker's output streams; a stream without an override is closed. */
class OutputStream {
  checkWrite() {
    throw { tag: 'closed' };
  }
  write() {
    throw { tag: 'closed' };
  }
  blockingWriteAndFlush() {
    throw { tag: 'closed' };
  }
  flush() {
    throw { tag: 'closed' };
  }
  blockingFlush() {
    throw { tag: 'closed' };
  }
  writeZeroes() {
    throw { tag: 'closed' };
  }
  blockingWriteZeroesAndFlush() {
    throw { tag: 'closed' };
  }
  splice() {
    throw { tag: 'closed' };
  }
  blockingSplice() {
    throw { tag: 'closed' };
  }
  subscribe() {
    return readyPollable();
  }
  [symbolDispose]() {}
}

/** Terminal resources: never handed out (every `get-terminal-*` answers none). */
class TerminalInput {}
class TerminalOutput {}

const monotonicClock = {
  now: () => hrtime.bigint(),
  resolution: () => 1n,
  subscribeInstant: (instant) => new Pollable(BigInt(instant)),
  subscribeDuration: (duration) => new Pollable(hrtime.bigint() + BigInt(duration)),
};

const wallClock = {
  now() {
    const milliseconds = Date.now();
    return { seconds: BigInt(Math.floor(milliseconds / 1000)), nanoseconds: (milliseconds % 1000) * 1e6 };
  },
  resolution: () => ({ seconds: 0n, nanoseconds: 1e6 }),
};

/** Cryptographically secure bytes (Web Crypto fills at most 64 KiB per call). */
function secureBytes(length) {
  const bytes = new Uint8Array(Number(length));
  for (let offset = 0; offset < bytes.length; offset += 65536) {
    globalThis.crypto.getRandomValues(bytes.subarray(offset, Math.min(bytes.length, offset + 65536)));
  }
  return bytes;
}

/** The spec allows these to be predictable; V8's generator is seeded from the OS. */
function insecureBytes(length) {
  const bytes = new Uint8Array(Number(length));
  for (let index = 0; index < bytes.length; index++) bytes[index] = Math.floor(Math.random() * 256);
  return bytes;
}

const u64 = (bytes) => new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
let seed;

/** The worker's own implementations, in the shim's namespace shapes (`io.streams.InputStream`, ...). */
export const ownWasi = Object.freeze({
  io: { error: { Error: IoError }, poll: { Pollable, poll }, streams: { InputStream, OutputStream } },
  clocks: { monotonicClock, wallClock },
  random: {
    random: { getRandomBytes: secureBytes, getRandomU64: () => u64(secureBytes(8)) },
    insecure: { getInsecureRandomBytes: insecureBytes, getInsecureRandomU64: () => u64(insecureBytes(8)) },
    insecureSeed: {
      insecureSeed() {
        seed ??= [u64(insecureBytes(8)), u64(insecureBytes(8))];
        return seed;
      },
    },
  },
  terminal: { TerminalInput, TerminalOutput },
});
