import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { ProtocolId } from '../protocols/protocol.js';

/** A recorded response loaded from disk. */
export type LoadedReplay =
  | { kind: 'stream'; protocol: ProtocolId; lines: string[]; path: string }
  | { kind: 'body'; protocol: ProtocolId; body: string; path: string };

/** An unreadable or unrecognisable replay file; the message says what to pass instead. */
export class MockReplayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MockReplayError';
  }
}

const FOLDER_PROTOCOLS: Record<string, ProtocolId> = {
  'anthropic-messages': 'anthropic',
  anthropic: 'anthropic',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  'google-gemini': 'gemini',
  gemini: 'gemini',
  'bedrock-converse': 'bedrock',
  bedrock: 'bedrock',
  'cohere-v2': 'cohere',
  cohere: 'cohere',
  ollama: 'ollama',
};

/** Guess a recorded payload's protocol from its shape (used when the folder name does not tell). */
export function sniffProtocol(sample: string): ProtocolId | undefined {
  let value: unknown;
  try {
    value = JSON.parse(sample);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const type = typeof record.type === 'string' ? record.type : '';
  if (record.object === 'chat.completion.chunk' || record.object === 'chat.completion') return 'openai-chat';
  if (type.startsWith('response.') || record.object === 'response') return 'openai-responses';
  if (['message_start', 'content_block_start', 'message'].includes(type) && 'id' in record) return 'anthropic';
  if (type === 'message_start' || type === 'ping') return 'anthropic';
  if ('candidates' in record || 'usageMetadata' in record) return 'gemini';
  const keys = Object.keys(record);
  const bedrockEvents = ['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop'];
  if (keys.length === 1 && bedrockEvents.includes(keys[0] ?? '')) return 'bedrock';
  if ('output' in record && 'stopReason' in record) return 'bedrock';
  if (type.includes('-') || 'finish_reason' in record) return 'cohere';
  if ('done' in record && 'message' in record) return 'ollama';
  return undefined;
}

/** Load a `*.chunks.txt` (one payload per line) or `*.json` (whole body) recording. */
export async function loadReplay(path: string, protocol?: ProtocolId): Promise<LoadedReplay> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new MockReplayError(`Cannot read replay file ${path}: ${(error as Error).message}`);
  }
  const isStream = !path.endsWith('.json');
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const resolved =
    protocol ?? FOLDER_PROTOCOLS[basename(dirname(path))] ?? sniffProtocol(isStream ? (lines[0] ?? '') : text);
  if (!resolved) {
    throw new MockReplayError(
      `Cannot tell the wire protocol of ${path}: put it in a folder named like shared/fixtures/provider-streams ` +
        `(anthropic-messages, openai-chat, ...) or pass "protocol" with the replay step.`,
    );
  }
  if (!isStream) return { kind: 'body', protocol: resolved, body: text, path };
  if (lines.length === 0) throw new MockReplayError(`Replay file ${path} has no lines to send.`);
  return { kind: 'stream', protocol: resolved, lines, path };
}
