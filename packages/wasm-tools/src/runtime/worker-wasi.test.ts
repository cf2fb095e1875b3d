// The worker's own wasi:io, clocks and random (worker-wasi.mjs), and the choice between them and
// preview2-shim per component (worker-capabilities.mjs): the objects a guest gets through its
// import object, called directly.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './test-fixtures.js';

type Constructor = new (...args: never[]) => object;
interface PollableLike {
  ready(): boolean;
  block(): void;
}
interface OwnWasi {
  io: {
    error: { Error: Constructor };
    poll: { Pollable: Constructor; poll(list: unknown[]): Uint32Array };
    streams: { InputStream: Constructor; OutputStream: Constructor };
  };
  clocks: {
    monotonicClock: {
      now(): bigint;
      subscribeDuration(duration: bigint): PollableLike;
      subscribeInstant(instant: bigint): PollableLike;
    };
    wallClock: { now(): { seconds: bigint; nanoseconds: number } };
  };
  random: {
    random: { getRandomBytes(length: bigint): Uint8Array; getRandomU64(): bigint };
    insecure: { getInsecureRandomBytes(length: bigint): Uint8Array };
    insecureSeed: { insecureSeed(): [bigint, bigint] };
  };
}
interface Capabilities {
  imports: Record<string, Record<string, unknown>>;
}
interface Descriptor {
  openAt(pathFlags: object, path: string, openFlags: object, descriptorFlags: object): Descriptor;
  readViaStream(offset: number): { blockingRead(length: bigint): Uint8Array };
}

const wasiUrl = new URL('./worker-wasi.mjs', import.meta.url).href;
const capabilitiesUrl = new URL('./worker-capabilities.mjs', import.meta.url).href;
const OWN_IMPORTS = ['wasi:cli/stdout', 'wasi:filesystem/types', 'wasi:io/streams', 'wasi:random/insecure-seed'];

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return 'nothing thrown';
}

describe("the worker's own wasi:io, clocks and random", () => {
  let wasi: OwnWasi;
  let coversImports: (imports: unknown) => boolean;

  beforeAll(async () => {
    ({ ownWasi: wasi, coversImports } = (await import(wasiUrl)) as {
      ownWasi: OwnWasi;
      coversImports: (imports: unknown) => boolean;
    });
  });

  it('covers a componentize-qjs tool but not wasi:http, wasi:sockets or an unknown list', () => {
    expect(coversImports(OWN_IMPORTS)).toBe(true);
    expect(coversImports([...OWN_IMPORTS, 'wasi:http/types'])).toBe(false);
    expect(coversImports(['wasi:sockets/tcp'])).toBe(false);
    expect(coversImports(undefined)).toBe(false);
  });

  it('makes a duration pollable ready only once the duration has passed, and block() waits for it', () => {
    const { monotonicClock } = wasi.clocks;
    const started = monotonicClock.now();
    const pollable = monotonicClock.subscribeDuration(40_000_000n);
    expect(pollable.ready()).toBe(false);
    pollable.block();
    expect(pollable.ready()).toBe(true);
    expect(monotonicClock.now() - started).toBeGreaterThanOrEqual(40_000_000n);
    expect(monotonicClock.subscribeInstant(started).ready()).toBe(true);
  });

  it('polls for the ready ones, sleeping until the first is ready, and refuses an empty or foreign list', () => {
    const { monotonicClock } = wasi.clocks;
    const { poll } = wasi.io.poll;
    const later = monotonicClock.subscribeDuration(60_000_000_000n);
    const soon = monotonicClock.subscribeDuration(20_000_000n);
    const now = monotonicClock.subscribeDuration(0n);
    expect([...poll([later, now])]).toEqual([1]);
    const started = monotonicClock.now();
    expect([...poll([later, soon])]).toEqual([1]);
    expect(monotonicClock.now() - started).toBeGreaterThanOrEqual(15_000_000n);
    expect(thrown(() => poll([]))).toBeInstanceOf(Error);
    expect(thrown(() => poll([{ ready: () => true }]))).toBeInstanceOf(TypeError);
  });

  it('gives random bytes of the asked length, past the 64 KiB Web Crypto limit, and one insecure seed', () => {
    const bytes = wasi.random.random.getRandomBytes(100_000n);
    expect(bytes.length).toBe(100_000);
    expect(new Set(bytes.subarray(70_000, 70_100)).size).toBeGreaterThan(10);
    expect(typeof wasi.random.random.getRandomU64()).toBe('bigint');
    expect(wasi.random.insecure.getInsecureRandomBytes(16n).length).toBe(16);
    const seed = wasi.random.insecureSeed.insecureSeed();
    expect(seed).toHaveLength(2);
    expect(wasi.random.insecureSeed.insecureSeed()).toEqual(seed);
  });

  it('reads the wall clock as seconds and nanoseconds', () => {
    const { seconds, nanoseconds } = wasi.clocks.wallClock.now();
    expect(Number(seconds)).toBeGreaterThan(Date.now() / 1000 - 5);
    expect(nanoseconds).toBeGreaterThanOrEqual(0);
    expect(nanoseconds).toBeLessThan(1e9);
  });

  it('has base streams that are closed until a subclass says otherwise', () => {
    const input = new wasi.io.streams.InputStream() as { read(length: bigint): unknown };
    const output = new wasi.io.streams.OutputStream() as { write(bytes: Uint8Array): unknown };
    expect(thrown(() => input.read(1n))).toEqual({ tag: 'closed' });
    expect(thrown(() => output.write(new Uint8Array(1)))).toEqual({ tag: 'closed' });
  });
});

describe('capabilities per component', () => {
  let root: { path: string; remove: () => Promise<void> };
  let createCapabilities: (request: object) => Promise<Capabilities>;
  let wasi: OwnWasi;

  beforeAll(async () => {
    root = await tempDir('worker-wasi');
    await writeFile(join(root.path, 'note.txt'), 'hello');
    ({ createCapabilities } = (await import(capabilitiesUrl)) as {
      createCapabilities: (request: object) => Promise<Capabilities>;
    });
    ({ ownWasi: wasi } = (await import(wasiUrl)) as { ownWasi: OwnWasi });
  });

  afterAll(async () => {
    await root.remove();
  });

  const request = (imports: string[] | undefined) => ({
    imports,
    root: root.path,
    readOnly: true,
    env: {},
    args: [],
    maxOutputBytes: 1024,
    policy: { protectedPaths: [], secretPaths: [] },
  });

  function fileStream(capabilities: Capabilities): object {
    const preopens = capabilities.imports['wasi:filesystem/preopens'] as {
      getDirectories(): Array<[Descriptor, string]>;
    };
    const [[folder]] = preopens.getDirectories() as [[Descriptor, string]];
    const file = folder.openAt({ symlinkFollow: false }, 'note.txt', {}, { read: true });
    return file.readViaStream(0);
  }

  it("gives a component that needs nothing else the worker's own classes, files and stdio included", async () => {
    const capabilities = await createCapabilities(request(OWN_IMPORTS));
    const streams = capabilities.imports['wasi:io/streams'] as OwnWasi['io']['streams'];
    expect(streams.InputStream).toBe(wasi.io.streams.InputStream);
    const stream = fileStream(capabilities) as { blockingRead(length: bigint): Uint8Array };
    expect(stream).toBeInstanceOf(wasi.io.streams.InputStream);
    expect(new TextDecoder().decode(stream.blockingRead(100n))).toBe('hello');
    const stdout = (capabilities.imports['wasi:cli/stdout'] as { getStdout(): object }).getStdout();
    expect(stdout).toBeInstanceOf(wasi.io.streams.OutputStream);
  });

  it("gives a component that imports wasi:http (or an unknown list) the shim's classes throughout", async () => {
    const { io } = (await import('@bytecodealliance/preview2-shim')) as unknown as {
      io: { streams: { InputStream: Constructor; OutputStream: Constructor } };
    };
    for (const imports of [[...OWN_IMPORTS, 'wasi:http/types'], undefined]) {
      const capabilities = await createCapabilities(request(imports));
      const streams = capabilities.imports['wasi:io/streams'] as OwnWasi['io']['streams'];
      expect(streams.InputStream).toBe(io.streams.InputStream);
      expect(fileStream(capabilities)).toBeInstanceOf(io.streams.InputStream);
      const stdout = (capabilities.imports['wasi:cli/stdout'] as { getStdout(): object }).getStdout();
      expect(stdout).toBeInstanceOf(io.streams.OutputStream);
      const handler = capabilities.imports['wasi:http/outgoing-handler'] as { handle(request: unknown): unknown };
      expect(thrown(() => handler.handle({}))).toEqual({ tag: 'HTTP-request-denied' });
    }
  });
});
