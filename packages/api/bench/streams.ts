import { join } from 'node:path';
import { providerStreamsDir } from './package-dir.js';
import type { BenchProtocol } from './protocols.js';

/**
 * How a stream reaches the client: `event`, one socket write per event, back to back; `16k`, 16 KiB
 * writes; `paced`, one write per event with {@link PACED_GAP_MICROSECONDS} between them (through the
 * paced proxy), as a live model's tokens arrive, so the client goes idle between events.
 */
export type WriteMode = 'event' | '16k' | 'paced';

/** Every write mode, in table order. */
export const WRITE_MODES: readonly WriteMode[] = ['event', '16k', 'paced'];

/** The gap between two events in `paced` mode. */
export const PACED_GAP_MICROSECONDS = 200;

/**
 * Bytes per socket write of each mode on the mock server; undefined is the testkit default (one
 * write per event). The paced proxy asks for `paced` streams written one event per write and paces them.
 */
const WRITE_BYTES: Readonly<Record<WriteMode, number | undefined>> = {
  event: undefined,
  '16k': 16_384,
  paced: undefined,
};

/** A stream the bench consumes: a recording replayed byte for byte, or a scripted long text turn. */
export interface BenchStream {
  id: string;
  protocol: BenchProtocol;
  source: { kind: 'replay'; path: string } | { kind: 'scripted'; text: string; textDelta: number };
}

/**
 * A deterministic ~2.6 KB answer with what real answers carry: punctuation, quotes and newlines that
 * JSON escapes, and multi-byte characters a 16 KiB write can split.
 */
function longAnswer(): string {
  const paragraphs = [
    'Streaming parsers spend most of their time in three places: finding event boundaries, decoding bytes to text, and parsing JSON.',
    'A "delta" of four characters is close to what a live model sends per token — so per-event overhead dominates, not bytes.',
    'Résumé of costs: the socket read, the UTF-8 decode, the SSE split, JSON.parse, and whatever the client adds on top.',
    'Async iteration adds a promise per event; a queue between producer and consumer adds another; timers add more.',
    'Keep the hot path flat:\n- no per-event closures,\n- no per-event timers,\n- no copies of the whole buffer.',
  ];
  let text = '';
  for (let round = 0; text.length < 2_600; round += 1) {
    text += `${paragraphs[round % paragraphs.length]} (${round})\n\n`;
  }
  return text;
}

const LONG_TEXT = longAnswer();
/** Characters per scripted delta: about one token, as live streams arrive. */
const TOKEN_CHARS = 4;

function scripted(id: string, protocol: BenchProtocol): BenchStream {
  return { id, protocol, source: { kind: 'scripted', text: LONG_TEXT, textDelta: TOKEN_CHARS } };
}

const FIXTURES = providerStreamsDir();

function replay(id: string, file: string): BenchStream[] {
  return FIXTURES === undefined
    ? []
    : [{ id, protocol: 'openai-chat', source: { kind: 'replay', path: join(FIXTURES, file) } }];
}

/**
 * The streams measured: the largest recordings (all OpenAI Chat; left out where
 * `../shared/fixtures` is not beside the clone), and one long scripted text turn rendered by the
 * testkit in every other protocol (no long recording exists for those).
 */
export const STREAMS: readonly BenchStream[] = [
  ...replay('groq-text', 'openai-chat/groq-text.chunks.txt'),
  ...replay('openai-text', 'openai-chat/openai-text.chunks.txt'),
  ...replay('deepseek-reasoning', 'openai-chat/deepseek-reasoning.chunks.txt'),
  scripted('anthropic-long', 'anthropic'),
  scripted('responses-long', 'openai-responses'),
  scripted('gemini-long', 'gemini'),
  scripted('bedrock-long', 'bedrock'),
  scripted('cohere-long', 'cohere'),
  scripted('ollama-long', 'ollama'),
];

/** Why recorded streams are missing from {@link STREAMS}, or undefined when they are there. */
export const RECORDINGS_MISSING: string | undefined =
  FIXTURES === undefined
    ? 'recorded streams skipped: ../shared/fixtures/provider-streams is not beside this clone'
    : undefined;

/** The model name that routes a request to `stream` written in `mode` (a rule of the mock script). */
export function modelFor(stream: BenchStream, mode: WriteMode): string {
  return `bench-${stream.id}-${mode}`;
}

/**
 * The testkit script serving every (stream, mode): one rule per pair, matched by model name, that
 * repeats its only step forever. Plain JSON, validated by the testkit when the server starts.
 */
export function mockScript(streams: readonly BenchStream[]): Record<string, unknown> {
  const rules = streams.flatMap((stream) =>
    WRITE_MODES.map((mode) => {
      const writeBytes = WRITE_BYTES[mode];
      const chunking: Record<string, number> = writeBytes === undefined ? {} : { writeBytes };
      const step =
        stream.source.kind === 'replay'
          ? { replay: stream.source.path, protocol: stream.protocol, chunking }
          : { text: stream.source.text, chunking: { ...chunking, textDelta: stream.source.textDelta } };
      return { match: { model: modelFor(stream, mode) }, steps: [step], repeatLast: true };
    }),
  );
  return { rules };
}
