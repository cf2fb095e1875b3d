import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ParsedRequest, ProtocolRenderer, ResolvedError } from '../protocols/protocol.js';
import { awsFrame, protocolFor, RENDERERS } from '../protocols/registry.js';
import { IdSource, resolveTurn } from '../script/resolve.js';
import { MockScriptError, parseMockFault, parseMockScript } from '../script/schema.js';
import type { MockFault, MockMatch, MockReplay, MockRule, MockScript, MockStep, MockTurn } from '../script/types.js';
import { encoderFor, SSE_COMMENT_PING } from './framing.js';
import { modelListKind, renderModelList } from './models.js';
import { ScriptState } from './queues.js';
import { maskHeaders, maskQuery, type RecordedRequest } from './recorder.js';
import { type LoadedReplay, loadReplay } from './replay.js';
import { writeBody, writeStream } from './stream-writer.js';

/** Options of {@link startMockServer}. */
export interface MockServerOptions {
  /** The script to play; validated (a {@link MockScriptError} says what is wrong). */
  script?: MockScript;
  /** Interface to bind. Default `127.0.0.1`: the mock is for loopback. */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
  /** Ids the model-list endpoints return. Default `['mock-model']`. */
  models?: string[];
  /** Largest request body accepted, in bytes. Default 32 MiB. */
  maxBodyBytes?: number;
  /** Called for each request after it is recorded (e.g. to log it). */
  onRequest?: (request: RecordedRequest) => void;
}

/** A running mock LLM server. */
export interface MockServer {
  /** `http://127.0.0.1:<port>`: the Anthropic SDK's baseURL; add `/v1` for the OpenAI SDK. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order, credentials masked. */
  readonly requests: readonly RecordedRequest[];
  /** Replace the script and reset every queue and injected fault. */
  setScript(script: MockScript): void;
  /** Append steps to the default queue. */
  enqueue(...steps: MockStep[]): void;
  /** Add a routing rule after the existing ones. */
  addRule(rule: MockRule): void;
  /**
   * Apply a fault to the next `times` requests (that meet `match`). The step those requests would
   * get is not used up, so a client's retry receives it whole.
   */
  injectFault(fault: MockFault, options?: { match?: MockMatch; times?: number }): void;
  /** Steps left in the default queue. */
  readonly remaining: number;
  clearRequests(): void;
  /** Stop listening and drop every open connection (stalled streams included). */
  close(): Promise<void>;
}

/** Header a client can send to apply one fault (JSON) to that request alone. */
export const FAULT_HEADER = 'x-boxagnts-mock-fault';

const CORS_AND_MOCK = { 'x-boxagnts-mock': '1' };

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly error: ResolvedError['error'] = 'invalid_request',
  ) {
    super(message);
  }
}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop keeping the body but let it drain, so the 413 reaches the client before the socket closes.
        request.removeAllListeners('data');
        request.resume();
        reject(new HttpProblem(413, `boxagnts-mock: request body over ${limit} bytes; raise maxBodyBytes`));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function isReplay(step: MockStep): step is MockReplay {
  return 'replay' in step;
}

class MockLlmServer implements MockServer {
  readonly requests: RecordedRequest[] = [];
  private readonly state = new ScriptState();
  private readonly ids = new IdSource();
  private readonly replays = new Map<string, Promise<LoadedReplay>>();
  private requestCounter = 0;
  url = '';
  port = 0;

  constructor(
    private readonly server: Server,
    private readonly options: MockServerOptions,
  ) {
    this.state.load(options.script ? parseMockScript(options.script) : {});
  }

  get remaining(): number {
    return this.state.remaining;
  }

  setScript(script: MockScript): void {
    this.state.load(parseMockScript(script));
  }

  enqueue(...steps: MockStep[]): void {
    this.state.enqueue(parseMockScript({ steps }).steps ?? []);
  }

  addRule(rule: MockRule): void {
    const [parsed] = parseMockScript({ rules: [rule] }).rules ?? [];
    if (parsed) this.state.addRule(parsed);
  }

  injectFault(fault: MockFault, options: { match?: MockMatch; times?: number } = {}): void {
    this.state.inject(parseMockFault(fault), options.match, options.times ?? 1);
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://mock.invalid');
    const path = url.pathname;
    const method = request.method ?? 'GET';
    const requestId = `req_mock${String(++this.requestCounter).padStart(6, '0')}`;
    let renderer: ProtocolRenderer | undefined;
    let parsed: ParsedRequest | undefined;
    try {
      const rawBody = await readBody(request, this.options.maxBodyBytes ?? 32 * 1024 * 1024);
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : (value ?? ''),
        ]),
      );
      let body: unknown;
      let bodyError: string | undefined;
      if (rawBody.trim() !== '') {
        try {
          body = JSON.parse(rawBody);
        } catch (error) {
          bodyError = `boxagnts-mock: the request body is not valid JSON (${(error as Error).message})`;
        }
      }
      const listKind = method === 'GET' ? modelListKind(path, headers, url.searchParams) : undefined;
      const route = method === 'GET' ? undefined : protocolFor(method, path, body);
      renderer = route?.renderer;
      parsed = {
        protocol: renderer?.id ?? 'openai-chat',
        method,
        path,
        query: url.searchParams,
        headers,
        body,
        rawBody,
        model: route?.match.model ?? '',
        stream: route?.match.stream ?? false,
        includeUsage: route?.match.includeUsage ?? false,
      };
      const record: RecordedRequest = {
        index: this.requests.length + 1,
        method,
        path,
        query: maskQuery(url.searchParams),
        headers: maskHeaders(request.headers),
        body,
        rawBody,
        protocol: renderer?.id,
        model: parsed.model,
        stream: parsed.stream,
        servedBy: undefined,
        receivedAt: new Date(),
      };
      this.requests.push(record);
      this.options.onRequest?.(record);

      if (listKind) {
        const models = this.options.models ?? ['mock-model'];
        return this.sendJson(response, 200, renderModelList(listKind, models), { 'request-id': requestId });
      }
      if (!renderer) {
        throw new HttpProblem(
          404,
          `boxagnts-mock: no route for ${method} ${path}. Generation routes: POST …/v1/messages, …/chat/completions, ` +
            `…/responses, …/models/{model}:generateContent|:streamGenerateContent, /model/{id}/converse|converse-stream, ` +
            `…/v2/chat, …/api/chat; lists: GET …/models, /api/tags.`,
          'not_found',
        );
      }
      if (bodyError) throw new HttpProblem(400, bodyError);
      const headerFault = this.faultFromHeader(headers[FAULT_HEADER]);
      const injected = headerFault ?? this.state.takeInjectedFault(parsed);
      const selection = this.state.select(parsed, injected === undefined);
      if (!selection && injected?.kind === 'http_error') {
        // An error response needs no scripted content: serve it even when no step is left.
        const headers = { ...renderer.responseHeaders(requestId), ...CORS_AND_MOCK };
        return this.sendError(response, renderer, parsed, injected, headers);
      }
      if (!selection) {
        throw new HttpProblem(
          500,
          `boxagnts-mock: the script has no step left for request #${record.index} (${method} ${path}, model ` +
            `"${parsed.model}"). Add steps (enqueue / script.steps) or set repeatLast.`,
          'server',
        );
      }
      record.servedBy = selection.servedBy;
      const fault = injected ?? selection.step.fault;
      if (isReplay(selection.step)) {
        return await this.serveReplay(response, renderer, parsed, selection.step, fault, requestId);
      }
      return await this.serveTurn(response, renderer, parsed, selection.step, fault, requestId);
    } catch (error) {
      this.sendProblem(response, renderer, parsed, error, requestId);
    }
  }

  private faultFromHeader(value: string | undefined): MockFault | undefined {
    if (value === undefined) return undefined;
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      throw new HttpProblem(400, `boxagnts-mock: the ${FAULT_HEADER} header is not JSON: ${value}`);
    }
    return parseMockFault(json, `${FAULT_HEADER} header`);
  }

  private async serveTurn(
    response: ServerResponse,
    renderer: ProtocolRenderer,
    request: ParsedRequest,
    turn: MockTurn,
    fault: MockFault | undefined,
    requestId: string,
  ): Promise<void> {
    const headers = { ...renderer.responseHeaders(requestId), ...CORS_AND_MOCK };
    if (fault?.kind === 'http_error') return this.sendError(response, renderer, request, fault, headers);
    if (fault?.kind === 'mid_stream_error' && !request.stream) {
      const error: ResolvedError = { error: fault.error ?? 'overloaded', message: fault.message };
      return this.sendError(response, renderer, request, error, headers);
    }
    const resolved = resolveTurn(turn, {
      protocol: renderer.id,
      requestedModel: request.model,
      ids: this.ids,
      chunking: this.state.script.chunking,
      fault,
    });
    const chunking = { ...this.state.script.chunking, ...turn.chunking };
    if (!request.stream) {
      const body = Buffer.from(JSON.stringify(renderer.renderResponse(resolved, request)));
      return this.sendBody(response, body, headers, fault);
    }
    response.writeHead(200, { ...headers, 'content-type': renderer.streamContentType, 'cache-control': 'no-cache' });
    await writeStream(response, {
      events: renderer.renderStream(resolved, request),
      encode: encoderFor(renderer, awsFrame),
      keepAlive: this.keepAlive(renderer),
      fault,
      errorEvent: (eventsSent) => renderer.renderStreamError(this.streamError(fault), request, { eventsSent }),
      writeBytes: chunking.writeBytes,
      delayMs: chunking.delayMs ?? 0,
    });
  }

  private async serveReplay(
    response: ServerResponse,
    requestRenderer: ProtocolRenderer,
    request: ParsedRequest,
    step: MockReplay,
    fault: MockFault | undefined,
    requestId: string,
  ): Promise<void> {
    let pending = this.replays.get(`${step.protocol ?? ''}:${step.replay}`);
    if (!pending) {
      pending = loadReplay(step.replay, step.protocol);
      this.replays.set(`${step.protocol ?? ''}:${step.replay}`, pending);
    }
    const replay = await pending.catch((error: Error) => {
      this.replays.delete(`${step.protocol ?? ''}:${step.replay}`);
      throw new HttpProblem(500, `boxagnts-mock: ${error.message}`, 'server');
    });
    if (replay.protocol !== requestRenderer.id) {
      throw new HttpProblem(
        400,
        `boxagnts-mock: replay ${replay.path} is ${replay.protocol} but the request came in as ` +
          `${requestRenderer.id} (${request.path}); route it with a rule matching protocol "${replay.protocol}".`,
      );
    }
    if ((replay.kind === 'stream') !== request.stream && step.status === undefined) {
      throw new HttpProblem(
        400,
        `boxagnts-mock: replay ${replay.path} is ${replay.kind === 'stream' ? 'a stream' : 'a whole body'} but the ` +
          `request asked for ${request.stream ? 'a stream' : 'a whole body'}; use a *.chunks.txt file for streams ` +
          `and a *.json file otherwise.`,
      );
    }
    const renderer = RENDERERS[replay.protocol];
    const headers = { ...renderer.responseHeaders(requestId), ...CORS_AND_MOCK };
    if (fault?.kind === 'http_error') return this.sendError(response, renderer, request, fault, headers);
    if (replay.kind === 'body' && step.status !== undefined) {
      // A recorded error body (e.g. Gemini's 429 with RetryInfo) served with its status.
      return this.sendJson(response, step.status, Buffer.from(replay.body), headers);
    }
    if (replay.kind === 'body') return this.sendBody(response, Buffer.from(replay.body), headers, fault);
    const chunking = { ...this.state.script.chunking, ...step.chunking };
    response.writeHead(200, { ...headers, 'content-type': renderer.streamContentType, 'cache-control': 'no-cache' });
    await writeStream(response, {
      events: renderer.replayStream(replay.lines),
      encode: encoderFor(renderer, awsFrame),
      keepAlive: this.keepAlive(renderer),
      fault,
      errorEvent: (eventsSent) => renderer.renderStreamError(this.streamError(fault), request, { eventsSent }),
      writeBytes: chunking.writeBytes,
      delayMs: chunking.delayMs ?? 0,
    });
  }

  private streamError(fault: MockFault | undefined): ResolvedError {
    const error = fault?.kind === 'mid_stream_error' ? (fault.error ?? 'overloaded') : 'overloaded';
    return { error, message: fault?.kind === 'mid_stream_error' ? fault.message : undefined };
  }

  /** The vendor's keep-alive; an SSE comment for SSE protocols without one; nothing for NDJSON and binary frames. */
  private keepAlive(renderer: ProtocolRenderer): Uint8Array | undefined {
    const event = renderer.keepAlive();
    if (event) return encoderFor(renderer, awsFrame)(event);
    return renderer.framing === 'sse' ? SSE_COMMENT_PING : undefined;
  }

  /** A whole JSON body, possibly broken by a fault (reset, stall, truncate). */
  private async sendBody(
    response: ServerResponse,
    body: Buffer,
    headers: Record<string, string>,
    fault: MockFault | undefined,
  ): Promise<void> {
    const kind = fault?.kind;
    if (kind !== 'reset' && kind !== 'stall' && kind !== 'truncate') {
      return this.sendJson(response, 200, body, headers);
    }
    response.writeHead(200, { ...headers, 'content-type': 'application/json' });
    response.flushHeaders();
    if (kind === 'truncate') {
      response.end(body.subarray(0, Math.floor(body.length / 2)));
      return;
    }
    const writes = kind === 'stall' ? [] : [body];
    await writeBody(response, writes, { fault, delayMs: 0, after: kind === 'stall' ? 'stall' : 'end' });
  }

  private sendError(
    response: ServerResponse,
    renderer: ProtocolRenderer,
    request: ParsedRequest | undefined,
    error: ResolvedError,
    headers: Record<string, string>,
  ): void {
    const rendered = renderer.renderError(error, request);
    response.writeHead(rendered.status, { ...headers, ...rendered.headers, 'content-type': 'application/json' });
    response.end(rendered.body);
  }

  private sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
    const text = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    response.writeHead(status, {
      ...headers,
      ...CORS_AND_MOCK,
      'content-type': 'application/json',
      'content-length': String(text.length),
    });
    response.end(text);
  }

  /** Mock-side problems (bad route, bad script, bad body) in the vendor's error shape where the route is known. */
  private sendProblem(
    response: ServerResponse,
    renderer: ProtocolRenderer | undefined,
    request: ParsedRequest | undefined,
    error: unknown,
    requestId: string,
  ): void {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const problem =
      error instanceof HttpProblem
        ? error
        : error instanceof MockScriptError
          ? new HttpProblem(400, `boxagnts-mock: ${error.message}`)
          : new HttpProblem(500, `boxagnts-mock: ${(error as Error).message ?? String(error)}`, 'server');
    if (renderer) {
      const headers = { ...renderer.responseHeaders(requestId), ...CORS_AND_MOCK };
      this.sendError(
        response,
        renderer,
        request,
        { error: problem.error, status: problem.status, message: problem.message },
        headers,
      );
      return;
    }
    this.sendJson(response, problem.status, { error: { type: problem.error, message: problem.message } }, {});
  }
}

/**
 * Start a mock LLM server on loopback.
 *
 * @example
 * const mock = await startMockServer({ script: { steps: [{ text: 'Hello!' }] } });
 * const client = new Anthropic({ baseURL: mock.url, apiKey: 'test', maxRetries: 0 });
 * await client.messages.create({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
 * await mock.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  let instance: MockLlmServer | undefined;
  const server = createServer((request, response) => {
    void instance?.handle(request, response);
  });
  instance = new MockLlmServer(server, options);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  instance.port = address.port;
  instance.url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return instance;
}
