// Capabilities for one guest instance, built only from the instantiation import object (never the
// shim's process-global setters): the root preopened at `/` by a per-instance filesystem
// (worker-filesystem.mjs), only the named environment variables, captured stdio, no network, no
// exit of the host, no links. A component that imports only what the worker implements itself
// (worker-wasi.mjs) gets those implementations and the shim is never loaded; any other gets a
// fresh WASIShim per instance, with the same overrides. Plain JS: this file runs in the forked
// worker process (see worker.mjs).
import { createFilesystemImports } from './worker-filesystem.mjs';
import { OutputCapture } from './worker-output.mjs';
import { coversImports, ownWasi } from './worker-wasi.mjs';

/**
 * Files go through worker-filesystem.mjs (synchronous `fs`, no helper thread) on POSIX systems;
 * on Windows the shim's own implementation, with the descriptor guard below, is kept.
 */
const SYNC_FILESYSTEM = process.platform !== 'win32';

/** Thrown from `wasi:cli/exit`: unwinds the guest; the call ends with an error result. */
export class GuestExit extends Error {
  constructor(code) {
    super(`The component called exit(${code}).`);
    this.name = 'GuestExit';
    this.code = code;
  }
}

const readOnlyDescriptors = new WeakSet();
const MUTATING_METHODS = [
  'write',
  'writeViaStream',
  'appendViaStream',
  'setSize',
  'setTimes',
  'setTimesAt',
  'createDirectoryAt',
  'removeDirectoryAt',
  'renameAt',
  'unlinkFileAt',
];

/**
 * Patches the shim's Descriptor class once per worker process: links are never created (a
 * symlink could later point a path outside the root), and descriptors derived from a read-only
 * preopen refuse every change. Descriptors are the shim's own class (the transpiled glue checks
 * `instanceof`), so the guard lives on its prototype, keyed by a WeakSet of read-only handles.
 */
function guardDescriptors(filesystem) {
  const prototype = filesystem.types.Descriptor.prototype;
  if (prototype.__boxagntsGuarded) return;
  Object.defineProperty(prototype, '__boxagntsGuarded', { value: true });
  prototype.symlinkAt = () => {
    throw 'not-permitted';
  };
  prototype.linkAt = () => {
    throw 'not-permitted';
  };
  for (const name of MUTATING_METHODS) {
    const original = prototype[name];
    prototype[name] = function guarded(...args) {
      if (readOnlyDescriptors.has(this)) throw 'read-only';
      if (name === 'renameAt' && readOnlyDescriptors.has(args[1])) throw 'read-only';
      return original.apply(this, args);
    };
  }
  const openAt = prototype.openAt;
  prototype.openAt = function guardedOpenAt(pathFlags, path, openFlags, descriptorFlags) {
    const readOnly = readOnlyDescriptors.has(this);
    if (
      readOnly &&
      (openFlags?.create || openFlags?.truncate || descriptorFlags?.write || descriptorFlags?.mutateDirectory)
    ) {
      throw 'read-only';
    }
    const opened = openAt.call(this, pathFlags, path, openFlags, descriptorFlags);
    if (readOnly) readOnlyDescriptors.add(opened);
    return opened;
  };
}

let shimLoading;

/** preview2-shim, loaded (and its Descriptor guarded) the first time a component needs it. */
function loadShim() {
  shimLoading ??= Promise.all([
    import('@bytecodealliance/preview2-shim'),
    import('@bytecodealliance/preview2-shim/instantiation'),
  ]).then(([shim, instantiation]) => {
    guardDescriptors(shim.filesystem);
    return { wasi: shim, WASIShim: instantiation.WASIShim };
  });
  return shimLoading;
}

const stdioClasses = new WeakMap();

/** stdin and capture classes on top of one wasi:io (the glue checks `instanceof` against its classes). */
function stdioStreams({ io, clocks }) {
  const known = stdioClasses.get(io);
  if (known !== undefined) return known;
  const classes = defineStdioStreams(io, clocks);
  stdioClasses.set(io, classes);
  return classes;
}

function defineStdioStreams(io, clocks) {
  /** An stdin that is always at its end: the protocol passes input in argv, never on stdin. */
  class EmptyInputStream extends io.streams.InputStream {
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
      return clocks.monotonicClock.subscribeDuration(0n);
    }
  }

  /** An output stream that appends to an {@link OutputCapture} (head and tail kept, middle counted). */
  class CaptureOutputStream extends io.streams.OutputStream {
    constructor(sink) {
      super();
      this.sink = sink;
    }
    get capture() {
      return this.sink.capture;
    }
    checkWrite() {
      return 1n << 20n;
    }
    write(bytes) {
      this.capture.push(bytes);
    }
    blockingWriteAndFlush(bytes) {
      this.capture.push(bytes);
    }
    flush() {}
    blockingFlush() {}
    writeZeroes(length) {
      this.capture.push(new Uint8Array(Number(length)));
    }
    blockingWriteZeroesAndFlush(length) {
      this.capture.push(new Uint8Array(Number(length)));
    }
    splice() {
      throw { tag: 'closed' };
    }
    blockingSplice() {
      throw { tag: 'closed' };
    }
    subscribe() {
      return clocks.monotonicClock.subscribeDuration(0n);
    }
  }
  return { EmptyInputStream, CaptureOutputStream };
}

/** The shim-free import object: the worker's own wasi:io, clocks, random and terminal resources. */
function ownImports() {
  const { io, clocks, random, terminal } = ownWasi;
  return {
    'wasi:io/error': io.error,
    'wasi:io/poll': io.poll,
    'wasi:io/streams': io.streams,
    'wasi:clocks/monotonic-clock': clocks.monotonicClock,
    'wasi:clocks/wall-clock': clocks.wallClock,
    'wasi:random/random': random.random,
    'wasi:random/insecure': random.insecure,
    'wasi:random/insecure-seed': random.insecureSeed,
    'wasi:cli/terminal-input': { TerminalInput: terminal.TerminalInput },
    'wasi:cli/terminal-output': { TerminalOutput: terminal.TerminalOutput },
  };
}

/** The shim's import object for one instance, its outgoing HTTP re-addressed to the egress grant (or denied). */
function shimImports(shim, request) {
  const preopens = request.root === undefined || SYNC_FILESYSTEM ? {} : { '/': request.root };
  const imports = new shim.WASIShim({
    sandbox: { preopens, env: request.env, args: request.args, enableNetwork: false },
  }).getImportObject();
  const http = imports['wasi:http/outgoing-handler'];
  const egress = request.http;
  imports['wasi:http/outgoing-handler'] = {
    ...http,
    handle(outgoing, options) {
      // Without a grant (every tool but a network one with an allowlist) nothing goes out. With
      // one, the request is re-addressed to the host's egress endpoint, which fetches the target
      // under web_fetch's policy (component-egress.ts); the guest never connects anywhere itself.
      if (egress === undefined) throw { tag: 'HTTP-request-denied' };
      const scheme = outgoing.scheme();
      const schemeText =
        scheme === undefined || scheme.tag === 'HTTPS' ? 'https' : scheme.tag === 'HTTP' ? 'http' : String(scheme.val);
      const target = `${schemeText}://${outgoing.authority() ?? ''}${outgoing.pathWithQuery() ?? '/'}`;
      outgoing.setScheme({ tag: 'HTTP' });
      outgoing.setAuthority(`127.0.0.1:${egress.port}`);
      outgoing.setPathWithQuery(`/?t=${egress.token}&u=${encodeURIComponent(target)}`);
      // The shim's own handler (the instance's import object denies HTTP, as networking is off).
      return shim.wasi.http.outgoingHandler.handle(outgoing, options);
    },
  };
  if (!SYNC_FILESYSTEM && request.readOnly) {
    for (const [descriptor] of imports['wasi:filesystem/preopens'].getDirectories()) {
      readOnlyDescriptors.add(descriptor);
    }
  }
  return imports;
}

/**
 * Builds the import object for one instance; `beginCall` swaps in fresh output captures.
 * `imports` lists the interfaces the component imports (without versions): when the worker
 * implements all of them the shim stays unloaded; when it is missing or names others, the shim
 * provides wasi:io and the rest.
 * @param {{ root?: string, readOnly: boolean, env: Record<string, string>, args: string[], maxOutputBytes: number, policy?: { protectedPaths: string[], secretPaths: string[] }, http?: { port: number, token: string }, imports?: string[] }} request
 */
export async function createCapabilities(request) {
  const shim = SYNC_FILESYSTEM && coversImports(request.imports) ? undefined : await loadShim();
  const wasi = shim?.wasi ?? ownWasi;
  const { EmptyInputStream, CaptureOutputStream } = stdioStreams(wasi);
  const stdout = { capture: new OutputCapture(request.maxOutputBytes) };
  const stderr = { capture: new OutputCapture(request.maxOutputBytes) };
  const stdoutStream = new CaptureOutputStream(stdout);
  const stderrStream = new CaptureOutputStream(stderr);
  const stdinStream = new EmptyInputStream();
  const imports = shim === undefined ? ownImports() : shimImports(shim, request);
  const environmentEntries = Object.entries(request.env);
  const args = [...request.args];
  imports['wasi:cli/environment'] = {
    getEnvironment: () => environmentEntries,
    getArguments: () => args,
    initialCwd: () => undefined,
  };
  imports['wasi:cli/exit'] = {
    exit(status) {
      throw new GuestExit(status?.tag === 'err' ? 1 : 0);
    },
    exitWithCode(code) {
      throw new GuestExit(code);
    },
  };
  imports['wasi:cli/stdout'] = { getStdout: () => stdoutStream };
  imports['wasi:cli/stderr'] = { getStderr: () => stderrStream };
  imports['wasi:cli/stdin'] = { getStdin: () => stdinStream };
  imports['wasi:cli/terminal-stdin'] = { getTerminalStdin: () => undefined };
  imports['wasi:cli/terminal-stdout'] = { getTerminalStdout: () => undefined };
  imports['wasi:cli/terminal-stderr'] = { getTerminalStderr: () => undefined };
  if (SYNC_FILESYSTEM) {
    const files = createFilesystemImports(request.root, request.readOnly, request.policy, wasi);
    imports['wasi:filesystem/types'] = files.types;
    imports['wasi:filesystem/preopens'] = files.preopens;
  }
  return {
    imports,
    /** Starts a new call on this instance: fresh output captures, returned for reading after it. */
    beginCall(maxOutputBytes) {
      stdout.capture = new OutputCapture(maxOutputBytes);
      stderr.capture = new OutputCapture(maxOutputBytes);
      return { stdout: stdout.capture, stderr: stderr.capture };
    },
  };
}
