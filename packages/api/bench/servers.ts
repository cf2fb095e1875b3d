import { type MockServerProcess, startMockServerProcess, startPacedProxyProcess } from './mock-server-process.js';
import { type BenchStream, mockScript, PACED_GAP_MICROSECONDS, type WriteMode } from './streams.js';

/** The servers of a run: the testkit's mock server, and the paced proxy in front of it when `paced` runs. */
export interface BenchServers {
  /** The URL a client uses for streams written in `mode`. */
  urlFor(mode: WriteMode): string;
  /** One line for the log: URLs and pids. */
  readonly description: string;
  close(): Promise<void>;
  /** Synchronous stop, for `process.on('exit')`. */
  kill(): void;
}

/** Starts the mock server for `streams`, and the paced proxy (each in its own process) if `modes` has `paced`. */
export async function startBenchServers(
  streams: readonly BenchStream[],
  modes: readonly WriteMode[],
): Promise<BenchServers> {
  const mock = await startMockServerProcess(mockScript(streams));
  let paced: MockServerProcess | undefined;
  if (modes.includes('paced')) {
    try {
      paced = await startPacedProxyProcess(mock.url, PACED_GAP_MICROSECONDS);
    } catch (error) {
      await mock.close();
      throw error;
    }
  }
  const describe = (name: string, server: MockServerProcess) => `${name} ${server.url} (pid ${server.pid})`;
  return {
    urlFor: (mode) => (mode === 'paced' && paced !== undefined ? paced.url : mock.url),
    description: [
      describe('mock server', mock),
      ...(paced === undefined
        ? []
        : [`${describe('paced proxy', paced)}, ${PACED_GAP_MICROSECONDS} µs between events`]),
    ].join('; '),
    async close() {
      await paced?.close();
      await mock.close();
    },
    kill() {
      paced?.kill();
      mock.kill();
    },
  };
}
