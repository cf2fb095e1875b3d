import { adapterCandidate } from './bench/adapter-candidate.js';
import { lowerBound } from './bench/lower-bound.js';
import { openaiChatSdk } from './bench/sdk-candidates.js';
import { measureCase } from './bench/measure.js';
import { startMockServerProcess } from './bench/mock-server-process.js';
import { mockScript, modelFor, STREAMS } from './bench/streams.js';
import { createOpenAIChatProvider } from './src/adapters/openai-chat/openai-chat-provider.js';

const candidates = [lowerBound, adapterCandidate('openai-chat', (url) => createOpenAIChatProvider({ baseURL: `${url}/v1`, apiKey: 'bench-key' }))];
const streams = STREAMS.filter((s) => s.protocol === 'openai-chat');
const server = await startMockServerProcess(mockScript(streams));
try {
  const runners = new Map();
  for (const c of candidates) runners.set(c, await c.setup(server.url));
  for (const stream of streams) for (const mode of ['event', '16k'] as const) {
    const m = await measureCase({ protocol: stream.protocol, model: modelFor(stream, mode) }, candidates.map((candidate) => ({ candidate, runner: runners.get(candidate) })), { warmupStreams: 5, rounds: 5, turnMs: 80, minStreamsPerTurn: 2 });
    console.log(stream.id, mode, m.measured.map((r: {id: string; usPerEvent: number; ratio: number}) => `${r.id} ${r.usPerEvent.toFixed(1)}us x${r.ratio.toFixed(2)}`).join(" | "));
  }
} finally { await server.close(); }
process.exit(0);
