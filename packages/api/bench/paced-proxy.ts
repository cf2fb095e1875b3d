/**
 * The server side of the bench's `paced` mode, run in its own child process: a loopback proxy in
 * front of the testkit's mock server that fetches each stream whole (once per request shape, then
 * from memory), cuts it into its wire events, and writes them one at a time with a fixed gap, as
 * a live model's tokens arrive. Between events the client has nothing to do, so it goes idle and
 * each event costs a wakeup, which back-to-back writes never show.
 *
 * The gap is slept with `Atomics.wait` (a futex wait, sub-millisecond and without spinning a core,
 * unlike `setTimeout`'s 1 ms floor or a busy loop). It blocks this process's event loop for the
 * length of one stream, which is fine: the bench consumes one stream at a time, and libuv writes
 * each event to the socket at once, without the loop (once the socket is uncorked).
 *
 * Usage: paced-proxy.ts <upstream url> <gap µs>; prints `listening on <url>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface RecordedStream {
  status: number;
  headers: Record<string, string>;
  events: Buffer[];
}

const [upstream, gapArgument] = process.argv.slice(2);
const gapMs = Number(gapArgument) / 1000;
if (upstream === undefined || !(gapMs > 0)) {
  process.stderr.write('usage: paced-proxy.ts <upstream url> <gap µs>\n');
  process.exit(2);
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const recorded = new Map<string, RecordedStream>();

/** Cuts a whole body into wire events: SSE blocks, NDJSON lines or AWS event-stream frames. */
export function splitEvents(contentType: string, body: Buffer): Buffer[] {
  const events: Buffer[] = [];
  if (contentType.includes('amazon.eventstream')) {
    for (let start = 0; start + 4 <= body.length; ) {
      const end = start + body.readUInt32BE(start);
      events.push(body.subarray(start, end));
      start = end;
    }
    return events;
  }
  const separator = contentType.includes('event-stream') ? '\n\n' : '\n';
  let start = 0;
  for (let end = body.indexOf(separator, start); end !== -1; end = body.indexOf(separator, start)) {
    events.push(body.subarray(start, end + separator.length));
    start = end + separator.length;
  }
  if (start < body.length) events.push(body.subarray(start));
  return events;
}

async function readRequest(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function record(request: IncomingMessage, body: Buffer): Promise<RecordedStream> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
  }
  const response = await fetch(new URL(request.url ?? '/', upstream), {
    method: request.method ?? 'GET',
    headers,
    ...(body.length === 0 ? {} : { body }),
  });
  const contentType = response.headers.get('content-type') ?? '';
  const whole = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: { 'content-type': contentType }, events: splitEvents(contentType, whole) };
}

function writePaced(response: ServerResponse, stream: RecordedStream): void {
  response.writeHead(stream.status, stream.headers);
  response.flushHeaders();
  for (const [index, event] of stream.events.entries()) {
    if (index > 0) Atomics.wait(sleeper, 0, 0, gapMs);
    response.write(event);
    // `write` corks the socket until the next tick, which never comes while the loop is blocked:
    // uncork now so each event leaves in its own packet.
    response.socket?.uncork();
  }
  response.end();
}

const server = createServer((request, response) => {
  void (async () => {
    try {
      const body = await readRequest(request);
      const key = `${request.method} ${request.url} ${body.toString('utf8')}`;
      let stream = recorded.get(key);
      if (stream === undefined) {
        stream = await record(request, body);
        recorded.set(key, stream);
      }
      writePaced(response, stream);
    } catch (error) {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(String(error));
    }
  })();
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`paced proxy listening on http://127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
