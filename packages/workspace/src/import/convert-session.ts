import type { SessionEntry } from '@boxagnts/query';
import { isRecord, type SourceRead } from './read-source.js';

/** Session ids the import takes from BoxAgnts (its ids are UUIDs): no path or control characters. */
export const IMPORT_SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** One BoxAgnts session converted to this store's entries. */
export interface ConvertedSession {
  id: string;
  title: string;
  model: string | undefined;
  createdAt: number;
  updatedAt: number;
  entries: SessionEntry[];
  /** The session this one was branched or forked from in BoxAgnts, and after how many messages. */
  parentSessionId?: string;
  forkedAtSeq?: number;
  /** What was converted loosely (unknown blocks, bad times), for the report. */
  notes: string[];
}

type Block = Record<string, unknown>;

/** An RFC 3339 time as epoch milliseconds, or undefined. */
export function rfc3339ToMillis(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const millis = Date.parse(value);
  return Number.isFinite(millis) && millis >= 0 ? millis : undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
}

/** BoxAgnts' `{type, media_type, data}` / `{type: "url", url}` media source in this project's shape. */
function mediaSource(source: unknown): Block | undefined {
  if (!isRecord(source)) return undefined;
  if (source.type === 'url' && typeof source.url === 'string') return { type: 'url', url: source.url };
  if (typeof source.data === 'string') {
    const mediaType = source.media_type ?? source.mediaType;
    return {
      type: 'base64',
      data: source.data,
      mediaType: typeof mediaType === 'string' ? mediaType : 'application/octet-stream',
    };
  }
  return undefined;
}

/** A block the model never saw, kept readable: its type and its fields as text. */
function asText(block: Block, notes: Set<string>, why: string): Block {
  notes.add(why);
  const { type, ...fields } = block;
  return { type: 'text', text: `[BoxAgnts ${text(type)}] ${JSON.stringify(fields)}` };
}

/** The UI-only blocks of BoxAgnts as the transcript blocks of @boxagnts/api (undefined for other types). */
function transcriptBlock(block: Block): Block | undefined {
  switch (block.type) {
    case 'user_local_command_output':
      return { type: 'user_local_command_output', command: text(block.command), output: text(block.output) };
    case 'user_command':
      return { type: 'user_command', name: text(block.name), args: text(block.args) };
    case 'user_memory_input':
      return { type: 'user_memory_input', key: text(block.key), value: text(block.value) };
    // serde's snake_case of `SystemAPIError` is `system_a_p_i_error`; accept the readable spelling too.
    case 'system_a_p_i_error':
    case 'system_api_error': {
      const retry = block.retry_secs ?? block.retrySecs;
      return {
        type: 'system_api_error',
        message: text(block.message),
        ...(typeof retry === 'number' && Number.isFinite(retry) && retry >= 0 ? { retrySecs: retry } : {}),
      };
    }
    case 'collapsed_read_search': {
      const paths = Array.isArray(block.paths) ? block.paths.map(text) : [];
      const hidden = block.n_hidden;
      return {
        type: 'collapsed_read_search',
        toolName: text(block.tool_name ?? block.toolName),
        paths,
        ...(typeof hidden === 'number' ? { providerMetadata: { boxagnts: { nHidden: hidden } } } : {}),
      };
    }
    case 'task_assignment':
      return {
        type: 'task_assignment',
        id: text(block.id),
        subject: text(block.subject),
        description: text(block.description),
      };
    default:
      return undefined;
  }
}

function toolResultContent(content: unknown, notes: Set<string>): string | Block[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return text(content);
  const blocks: Block[] = [];
  for (const inner of content) {
    if (!isRecord(inner)) continue;
    if (inner.type === 'text') blocks.push({ type: 'text', text: text(inner.text) });
    else if (inner.type === 'image' && mediaSource(inner.source) !== undefined) {
      blocks.push({ type: 'image', source: mediaSource(inner.source) });
    } else blocks.push(asText(inner, notes, 'a tool result held a block other than text or image: kept as text'));
  }
  return blocks;
}

function convertBlock(block: Block, role: 'user' | 'assistant', notes: Set<string>): Block | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: text(block.text) };
    case 'image': {
      const source = mediaSource(block.source ?? block);
      if (source === undefined) return asText(block, notes, 'an image without data was kept as text');
      return role === 'user' ? { type: 'image', source } : asText(block, notes, 'an assistant image was kept as text');
    }
    case 'document': {
      const source = mediaSource(block.source);
      if (source === undefined || role !== 'user')
        return asText(block, notes, 'a document without data was kept as text');
      return {
        type: 'document',
        source,
        ...(typeof block.title === 'string' ? { title: block.title } : {}),
        ...(typeof block.context === 'string' ? { context: block.context } : {}),
      };
    }
    case 'tool_use': {
      if (role !== 'assistant') return asText(block, notes, 'a tool call in a user message was kept as text');
      const input = isRecord(block.input) ? block.input : { value: block.input ?? null };
      return { type: 'tool_use', id: text(block.id), name: text(block.name), input };
    }
    case 'tool_result':
      if (role !== 'user') return asText(block, notes, 'a tool result in an assistant message was kept as text');
      return {
        type: 'tool_result',
        toolUseId: text(block.tool_use_id ?? block.toolUseId),
        content: toolResultContent(block.content, notes),
        ...(block.is_error === true || block.isError === true ? { isError: true } : {}),
      };
    case 'thinking':
      if (role !== 'assistant') return asText(block, notes, 'thinking in a user message was kept as text');
      return {
        type: 'thinking',
        thinking: text(block.thinking),
        ...(typeof block.signature === 'string' && block.signature !== '' ? { signature: block.signature } : {}),
      };
    case 'redacted_thinking':
      if (role !== 'assistant') return undefined;
      return { type: 'redacted_thinking', data: text(block.data) };
    default: {
      const transcript = transcriptBlock(block);
      if (transcript === undefined) return asText(block, notes, `a block of unknown type was kept as text`);
      // The store keeps transcript blocks in user messages, where BoxAgnts puts them too.
      return role === 'user' ? transcript : asText(block, notes, 'a UI block in an assistant message was kept as text');
    }
  }
}

function usageOf(cost: unknown): SessionEntry['usage'] | undefined {
  if (!isRecord(cost)) return undefined;
  const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0);
  const noCache = count(cost.input_tokens);
  const cacheWrite = count(cost.cache_creation_input_tokens);
  const cacheRead = count(cost.cache_read_input_tokens);
  const output = count(cost.output_tokens);
  if (noCache + cacheWrite + cacheRead + output === 0) return undefined;
  return {
    input: { total: noCache + cacheWrite + cacheRead, noCache, cacheRead, cacheWrite },
    output: { total: output, text: output, reasoning: 0 },
  };
}

/**
 * Converts one BoxAgnts session file (`{id, created_at, updated_at, messages, model, title, ...}`):
 * snake_case blocks become this project's blocks (`tool_result.tool_use_id` -> `toolUseId`, image
 * `media_type` -> `mediaType`), UI-only blocks become transcript blocks, RFC 3339 times epoch
 * milliseconds, and message costs usage. `fileId` is the file's name without `.json`.
 */
export function convertBoxAgntsSession(value: unknown, fileId: string): SourceRead<ConvertedSession> {
  if (!isRecord(value)) return { ok: false, problem: 'is not a session object' };
  const id = typeof value.id === 'string' ? value.id : fileId;
  if (!IMPORT_SESSION_ID_PATTERN.test(id)) {
    return {
      ok: false,
      problem: `has the id ${JSON.stringify(id.slice(0, 80))}, which is not a session id (letters, digits, ".", "_", "-", at most 128)`,
    };
  }
  if (!Array.isArray(value.messages)) return { ok: false, problem: 'has no "messages" list' };
  const notes = new Set<string>();
  const createdAt = rfc3339ToMillis(value.created_at);
  const updatedAt = rfc3339ToMillis(value.updated_at);
  if (createdAt === undefined) notes.add('created_at is not an RFC 3339 time: the import time is used');
  const created = createdAt ?? Date.now();
  const updated = Math.max(updatedAt ?? created, created);
  const model = typeof value.model === 'string' && value.model !== '' ? value.model.slice(0, 200) : undefined;
  const entries: SessionEntry[] = [];
  for (const message of value.messages) {
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      notes.add('a message without the role user or assistant was left out');
      continue;
    }
    const role = message.role;
    let content: string | Block[];
    if (typeof message.content === 'string')
      content = role === 'user' ? message.content : [{ type: 'text', text: message.content }];
    else if (Array.isArray(message.content)) {
      content = message.content
        .filter(isRecord)
        .map((block) => convertBlock(block, role, notes))
        .filter((block): block is Block => block !== undefined);
    } else {
      notes.add('a message without content was left out');
      continue;
    }
    const usage = role === 'assistant' ? usageOf(message.cost) : undefined;
    entries.push({
      message: { role, content } as SessionEntry['message'],
      ...(role === 'assistant' && model !== undefined ? { model } : {}),
      ...(usage === undefined ? {} : { usage }),
      createdAt: created,
    });
  }
  const last = entries.at(-1);
  if (last !== undefined) entries[entries.length - 1] = { ...last, createdAt: updated };
  const title =
    typeof value.title === 'string' && value.title.trim() !== '' ? value.title.slice(0, 1000) : firstUserText(entries);
  // BoxAgnts records a fork (`/fork`) as parent_session_id + fork_point_message_index, a branch as branch_from + branch_at_message.
  const parent = [value.parent_session_id, value.branch_from].find(
    (candidate): candidate is string =>
      typeof candidate === 'string' && IMPORT_SESSION_ID_PATTERN.test(candidate) && candidate !== id,
  );
  const point = [value.fork_point_message_index, value.branch_at_message].find(
    (candidate): candidate is number => typeof candidate === 'number' && Number.isInteger(candidate) && candidate > 0,
  );
  return {
    ok: true,
    value: {
      id,
      title,
      model,
      createdAt: created,
      updatedAt: updated,
      entries,
      ...(parent === undefined ? {} : { parentSessionId: parent }),
      ...(parent === undefined || point === undefined ? {} : { forkedAtSeq: point }),
      notes: [...notes],
    },
  };
}

function firstUserText(entries: readonly SessionEntry[]): string {
  for (const entry of entries) {
    if (entry.message.role !== 'user') continue;
    const content = entry.message.content;
    const found = typeof content === 'string' ? content : content.find((block) => block.type === 'text');
    const value = typeof found === 'string' ? found : found !== undefined && 'text' in found ? found.text : '';
    if (value.trim() !== '') return value.trim().slice(0, 80);
  }
  return 'Imported from BoxAgnts';
}
