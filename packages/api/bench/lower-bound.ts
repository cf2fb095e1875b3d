import { Agent, fetch, request } from 'undici';
import type { Candidate, ConsumedStream, StreamTarget } from './candidate.js';
import { type AssembledText, type BenchProtocol, collectText, FRAMING, wireRequest } from './protocols.js';

/** Called once per wire event with its name (SSE `event:` or AWS `:event-type`, '' when none) and payload. */
type OnEvent = (name: string, data: string) => void;

/** The least a stream parser can do for these servers: split on the framing, hand over the payload. */
interface MinimalParser {
  feed(chunk: Buffer): void;
  end(): void;
}

/**
 * SSE as these servers write it (`\n` line ends, optional `event:` line, `data:` lines, blank line):
 * find each blank line, read the fields of the block before it. Bytes are decoded by a streaming
 * `TextDecoder`, so a multi-byte character split between writes is handled.
 */
function sseParser(onEvent: OnEvent): MinimalParser {
  const decoder = new TextDecoder();
  let buffer = '';
  const block = (start: number, end: number) => {
    let name = '';
    let data = '';
    let hasData = false;
    let lineStart = start;
    while (lineStart < end) {
      let lineEnd = buffer.indexOf('\n', lineStart);
      if (lineEnd === -1 || lineEnd > end) lineEnd = end;
      if (buffer.startsWith('data:', lineStart)) {
        const valueStart = buffer.charCodeAt(lineStart + 5) === 32 ? lineStart + 6 : lineStart + 5;
        const value = buffer.slice(valueStart, lineEnd);
        data = hasData ? `${data}\n${value}` : value;
        hasData = true;
      } else if (buffer.startsWith('event:', lineStart)) {
        name = buffer.slice(buffer.charCodeAt(lineStart + 6) === 32 ? lineStart + 7 : lineStart + 6, lineEnd);
      }
      lineStart = lineEnd + 1;
    }
    if (hasData) onEvent(name, data);
  };
  const scan = () => {
    let start = 0;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
      block(start, end);
      start = end + 2;
    }
    buffer = start === 0 ? buffer : buffer.slice(start);
  };
  return {
    feed(chunk) {
      buffer += decoder.decode(chunk, { stream: true });
      scan();
    },
    end() {
      buffer += `${decoder.decode()}\n\n`;
      scan();
    },
  };
}

/** NDJSON: one payload per `\n`-terminated line. */
function ndjsonParser(onEvent: OnEvent): MinimalParser {
  const decoder = new TextDecoder();
  let buffer = '';
  const scan = () => {
    let start = 0;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
      if (end > start) onEvent('', buffer.slice(start, end));
      start = end + 1;
    }
    buffer = start === 0 ? buffer : buffer.slice(start);
  };
  return {
    feed(chunk) {
      buffer += decoder.decode(chunk, { stream: true });
      scan();
    },
    end() {
      buffer += `${decoder.decode()}\n`;
      scan();
    },
  };
}

const STRING_HEADER = 7;

/**
 * AWS event-stream frames (Bedrock): 12-byte prelude (total length, headers length, prelude CRC),
 * headers, payload, message CRC. Reads the `:event-type` header and the payload; does NOT verify the
 * two CRC32s, which a production client should (the adapter pays for that, the lower bound does not).
 */
function awsEventStreamParser(onEvent: OnEvent): MinimalParser {
  let pending: Buffer = Buffer.alloc(0);
  return {
    feed(chunk) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      let offset = 0;
      while (pending.length - offset >= 12) {
        const total = pending.readUInt32BE(offset);
        if (pending.length - offset < total) break;
        const headersEnd = offset + 12 + pending.readUInt32BE(offset + 4);
        let name = '';
        for (let at = offset + 12; at < headersEnd; ) {
          const nameLength = pending[at] ?? 0;
          const header = pending.toString('latin1', at + 1, at + 1 + nameLength);
          at += 1 + nameLength;
          if (pending[at] !== STRING_HEADER) throw new Error(`unexpected event-stream header type ${pending[at]}`);
          const valueLength = pending.readUInt16BE(at + 1);
          if (header === ':event-type') name = pending.toString('utf8', at + 3, at + 3 + valueLength);
          at += 3 + valueLength;
        }
        onEvent(name, pending.toString('utf8', headersEnd, offset + total - 4));
        offset += total;
      }
      pending = offset === pending.length ? Buffer.alloc(0) : pending.subarray(offset);
    },
    end() {
      if (pending.length > 0) throw new Error(`event stream ended inside a frame (${pending.length} bytes left)`);
    },
  };
}

function parserFor(protocol: BenchProtocol, onEvent: OnEvent): MinimalParser {
  switch (FRAMING[protocol]) {
    case 'sse':
      return sseParser(onEvent);
    case 'ndjson':
      return ndjsonParser(onEvent);
    case 'aws-eventstream':
      return awsEventStreamParser(onEvent);
  }
}

/**
 * The lower bound: undici `request()` on a keep-alive agent, body chunks through a callback parser,
 * one `JSON.parse` per event, text appended. No async iteration per event, no event objects, no
 * validation: what any client must at least spend, measured in the same run as the candidates.
 */
export const lowerBound: Candidate = {
  id: 'lower-bound',
  kind: 'lower-bound',
  protocols: ['anthropic', 'openai-chat', 'openai-responses', 'gemini', 'bedrock', 'cohere', 'ollama'],
  setup(serverUrl) {
    const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
    return {
      run: (target) => consume(serverUrl, dispatcher, target),
      close: () => dispatcher.close(),
    };
  },
};

/**
 * A diagnostic, not a goal: the lower bound's parsing behind undici `fetch()` and its WHATWG
 * `ReadableStream` body (read with `for await`) instead of `request()` and `data` callbacks, which
 * is how the SDKs and `createProviderFetch` read bodies. The gap to `lower-bound` is the cost of
 * that transport choice alone. Runs only with `--candidate reference` (or its id).
 */
export const fetchLowerBound: Candidate = {
  id: 'reference:fetch',
  kind: 'reference',
  protocols: lowerBound.protocols,
  setup(serverUrl) {
    const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
    return {
      async run(target) {
        const wire = wireRequest(target.protocol, target.model);
        const response = await fetch(`${serverUrl}${wire.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(wire.body),
          dispatcher,
        });
        if (response.status !== 200 || response.body === null) {
          throw new Error(`reference:fetch: HTTP ${response.status} from ${wire.path}: ${await response.text()}`);
        }
        const assembled: AssembledText = { text: '', reasoning: '' };
        const parser = parserFor(target.protocol, (name, data) => {
          if (data !== '[DONE]') collectText(target.protocol, JSON.parse(data), assembled, name);
        });
        for await (const chunk of response.body)
          parser.feed(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        parser.end();
        return assembled;
      },
      close: () => dispatcher.close(),
    };
  },
};

async function consume(serverUrl: string, dispatcher: Agent, target: StreamTarget): Promise<ConsumedStream> {
  const wire = wireRequest(target.protocol, target.model);
  const response = await request(`${serverUrl}${wire.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(wire.body),
    dispatcher,
  });
  if (response.statusCode !== 200) {
    throw new Error(`lower bound: HTTP ${response.statusCode} from ${wire.path}: ${await response.body.text()}`);
  }
  const assembled: AssembledText = { text: '', reasoning: '' };
  let events = 0;
  let reads = 0;
  const parser = parserFor(target.protocol, (name, data) => {
    events += 1;
    if (data === '[DONE]') return;
    collectText(target.protocol, JSON.parse(data), assembled, name);
  });
  const body = response.body;
  await new Promise<void>((resolve, reject) => {
    body.on('data', (chunk: Buffer) => {
      reads += 1;
      try {
        parser.feed(chunk);
      } catch (error) {
        body.destroy(error as Error);
      }
    });
    body.once('error', reject);
    body.once('end', () => {
      try {
        parser.end();
        resolve();
      } catch (error) {
        reject(error);
      }
    });
  });
  return { ...assembled, events, reads };
}
