import { defineTool, errorResult, type Tool, type ToolContext, type ToolResult, textResult } from '@boxagnts/tools';
import { z } from 'zod';
import { type AddressPolicy, createAddressPolicy } from './address-policy.js';
import { type AllowedHost, AllowedHostError, parseAllowedHosts } from './allowed-hosts.js';
import { classifyContentType, decodeText, mediaType, sniffContent } from './content-kind.js';
import { fetchFollowingRedirects } from './fetch-url.js';
import { createGuardedAgent, type WebFetchLookup } from './guarded-agent.js';
import { discard, readBody } from './read-body.js';
import { renderInThread } from './render-in-thread.js';

/** Defaults of {@link createWebFetchTool}. */
export const WEB_FETCH_DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  maxLength: 100_000,
  userAgent: 'BoxAgnts-web_fetch/0.1',
  maxConversionMemoryBytes: 256 * 1024 * 1024,
});

/** Options of {@link createWebFetchTool}. */
export interface WebFetchToolOptions {
  /** Allowlist in Spin's `allowed_outbound_hosts` syntax; default: the run's `ToolContext.allowedHosts`. Empty = no network. */
  allowedHosts?: readonly string[];
  /** Overall deadline per call, connection to last body byte (default 30 s). */
  timeoutMs?: number;
  /** Most DECODED body bytes read (default 5 MiB); larger bodies are cut with a note. */
  maxBytes?: number;
  /** Most redirects followed (default 5). */
  maxRedirects?: number;
  /** DNS resolver returning every address of a name (default: the system resolver). */
  lookup?: WebFetchLookup;
  /** CIDR ranges exempt from the private-address block (an intranet; loopback in tests). */
  trustedAddresses?: readonly string[];
  /** The User-Agent header. */
  userAgent?: string;
  /**
   * Heap cap of the worker thread that converts HTML to Markdown or text, in bytes (default
   * 256 MiB); a page whose conversion needs more ends with an error result.
   */
  maxConversionMemoryBytes?: number;
}

/** A web_fetch configuration that cannot work; the message says what to change. */
export class WebFetchConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebFetchConfigError';
  }
}

function positiveBytes(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new WebFetchConfigError(`web_fetch option "${name}" must be a positive number of bytes; got ${value}.`);
  }
  return value;
}

const inputSchema = z.object({
  url: z.string().min(1).max(8192).describe('The http or https URL to fetch.'),
  format: z
    .enum(['markdown', 'text', 'html'])
    .optional()
    .describe('How to return HTML pages: markdown of the main content (default), plain text, or the raw HTML.'),
  max_length: z
    .number()
    .int()
    .positive()
    .max(1_000_000)
    .optional()
    .describe(`Most characters of content to return (default ${WEB_FETCH_DEFAULTS.maxLength}).`),
});

type WebFetchInput = z.output<typeof inputSchema>;

const NO_HOSTS_MESSAGE =
  'web_fetch has no allowed hosts, so it cannot reach the network. The host application must list the hosts it may fetch, in ToolContext.allowedHosts or createWebFetchTool({ allowedHosts }), for example "https://example.com", "https://*.example.com" or "*://*:*" for every public host.';

const ACCEPT: Record<NonNullable<WebFetchInput['format']>, string> = {
  markdown: 'text/html, text/markdown;q=0.9, text/plain;q=0.8, application/json;q=0.7, */*;q=0.1',
  text: 'text/plain, text/html;q=0.9, application/json;q=0.7, */*;q=0.1',
  html: 'text/html, */*;q=0.1',
};

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describeBinary(url: URL, contentType: string | undefined, length: string | undefined): string {
  const size = length === undefined ? 'unknown size' : `${length} bytes`;
  return `URL: ${url.href}\nContent-Type: ${contentType ?? 'unknown'}\n\nBinary content (${mediaType(contentType) || 'no type'}, ${size}) was not downloaded: web_fetch returns text, HTML, JSON and other text formats only.`;
}

type Rendered = { ok: true; title?: string; content: string } | { ok: false; result: ToolResult };

/**
 * Text as it is, raw HTML on request, else the main content converted on a worker thread within
 * what is left of the call's deadline; a conversion that overruns, runs out of memory or fails is
 * an error result saying so.
 */
async function render(
  kind: 'html' | 'text',
  text: string,
  url: URL,
  format: NonNullable<WebFetchInput['format']>,
  settings: Settings,
  remainingMs: number,
  signal: AbortSignal,
  metadata: Record<string, unknown>,
): Promise<Rendered> {
  if (kind === 'text' || format === 'html') return { ok: true, content: text };
  const outcome = await renderInThread(
    { html: text, url: url.href, format },
    remainingMs,
    settings.maxConversionMemoryBytes,
    signal,
  );
  const hint = 'Fetch it with format "html" to get the raw page instead.';
  const refused = (message: string, details: Record<string, unknown>): Rendered => ({
    ok: false,
    result: errorResult(message, details),
  });
  switch (outcome.status) {
    case 'ok':
      return { ok: true, ...outcome.value };
    case 'timed-out':
      if (outcome.stage === 'start') {
        return refused(
          `web_fetch read ${url.href} but no thread was free to convert its HTML to ${format} within the ${settings.timeoutMs} ms deadline (every thread busy, or the machine overloaded); try again. ${hint}`,
          { ...metadata, reason: 'conversion-busy' },
        );
      }
      return refused(
        `web_fetch read ${url.href} but converting its HTML to ${format} did not finish within the ${settings.timeoutMs} ms deadline and was stopped (a very large or deeply nested page). ${hint}`,
        { ...metadata, reason: 'conversion-timeout' },
      );
    case 'aborted':
      return refused(`web_fetch of ${url.href} was cancelled.`, { ...metadata, reason: 'cancelled' });
    case 'out-of-memory':
      return refused(
        `web_fetch read ${url.href} but converting its HTML to ${format} needed more than the ${Math.round(settings.maxConversionMemoryBytes / 1048576)} MiB it may use and was stopped. ${hint}`,
        { ...metadata, reason: 'conversion-memory' },
      );
    case 'error':
    case 'crashed':
      return refused(
        `web_fetch read ${url.href} but could not convert its HTML to ${format}: ${outcome.message}. ${hint}`,
        { ...metadata, reason: 'conversion-failed' },
      );
  }
}

interface Settings {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  maxConversionMemoryBytes: number;
  lookup: WebFetchLookup | undefined;
  addresses: AddressPolicy;
  allowed: AllowedHost[] | undefined;
}

function resolveAllowed(settings: Settings, context: ToolContext): AllowedHost[] | ToolResult {
  if (settings.allowed !== undefined) return settings.allowed;
  try {
    return parseAllowedHosts(context.allowedHosts ?? []);
  } catch (error) {
    if (error instanceof AllowedHostError)
      return errorResult(`web_fetch cannot use the run's allowed hosts: ${error.message}`, { reason: 'bad-allowlist' });
    throw error;
  }
}

async function fetchPage(settings: Settings, input: WebFetchInput, context: ToolContext): Promise<ToolResult> {
  const allowed = resolveAllowed(settings, context);
  if (!Array.isArray(allowed)) return allowed;
  if (allowed.length === 0) return errorResult(NO_HOSTS_MESSAGE, { reason: 'no-allowed-hosts' });
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return errorResult(
      `"${input.url}" is not an absolute URL: give a full http or https URL such as https://example.com/page.`,
      { reason: 'bad-url' },
    );
  }
  const format = input.format ?? 'markdown';
  const startedAt = Date.now();
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([context.signal, deadline]);
  const aborted = () =>
    errorResult(
      deadline.aborted
        ? `web_fetch stopped ${url.href}: it took longer than the ${settings.timeoutMs} ms deadline (connection to last byte).`
        : `web_fetch of ${url.href} was cancelled.`,
      { reason: deadline.aborted ? 'timeout' : 'cancelled' },
    );
  const agent = await createGuardedAgent({
    policy: settings.addresses,
    lookup: settings.lookup,
    timeoutMs: settings.timeoutMs,
  });
  try {
    const outcome = await fetchFollowingRedirects({
      url,
      allowed,
      addresses: settings.addresses,
      dispatcher: agent,
      signal,
      maxRedirects: settings.maxRedirects,
      userAgent: settings.userAgent,
      accept: ACCEPT[format],
    });
    if (!outcome.ok) {
      if (outcome.reason === 'aborted') return aborted();
      return errorResult(outcome.message, { reason: outcome.reason, redirects: outcome.redirects });
    }
    const contentType = header(outcome.headers['content-type']);
    const metadata = { url: outcome.url.href, status: outcome.status, contentType, redirects: outcome.redirects };
    let kind = classifyContentType(contentType);
    if (kind === 'binary') {
      discard(outcome.body);
      return textResult(describeBinary(outcome.url, contentType, header(outcome.headers['content-length'])), {
        ...metadata,
        binary: true,
      });
    }
    let body: Awaited<ReturnType<typeof readBody>>;
    try {
      body = await readBody(outcome.body, header(outcome.headers['content-encoding']), settings.maxBytes, signal);
    } catch (error) {
      if (signal.aborted) return aborted();
      return errorResult(
        `web_fetch could not read ${outcome.url.href}: ${error instanceof Error ? error.message : String(error)}`,
        { ...metadata, reason: 'body' },
      );
    }
    kind ??= sniffContent(body.bytes);
    if (kind === 'binary')
      return textResult(describeBinary(outcome.url, contentType, String(body.bytes.length)), {
        ...metadata,
        binary: true,
      });
    const rendered = await render(
      kind,
      decodeText(body.bytes, contentType),
      outcome.url,
      format,
      settings,
      settings.timeoutMs - (Date.now() - startedAt),
      context.signal,
      { ...metadata, bytes: body.bytes.length },
    );
    if (!rendered.ok) return rendered.result;
    const maxLength = input.max_length ?? WEB_FETCH_DEFAULTS.maxLength;
    const notes: string[] = [];
    if (body.truncated)
      notes.push(
        `[The response was cut at ${settings.maxBytes} decoded bytes (the web_fetch size limit); the rest was not read.]`,
      );
    if (body.failure !== undefined) notes.push(`[Reading stopped early: ${body.failure}]`);
    let content = rendered.content;
    if (content.length > maxLength) {
      content = content.slice(0, maxLength);
      notes.push(`[Content truncated to ${maxLength} characters; pass a larger max_length to see more.]`);
    }
    const lines = [
      `URL: ${outcome.url.href}`,
      `Status: ${outcome.status}`,
      `Content-Type: ${contentType ?? 'unknown'}`,
    ];
    if (rendered.title !== undefined) lines.push(`Title: ${rendered.title}`);
    if (outcome.redirects.length > 0) lines.push(`Redirected from: ${outcome.redirects.join(' -> ')}`);
    const text = [lines.join('\n'), content, ...notes].join('\n\n');
    const resultMetadata = { ...metadata, bytes: body.bytes.length, truncated: body.truncated || notes.length > 0 };
    if (outcome.status >= 400)
      return errorResult(`HTTP ${outcome.status} from ${outcome.url.href}\n\n${text}`, {
        ...resultMetadata,
        reason: 'http-status',
      });
    return textResult(text, resultMetadata);
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

/**
 * Creates the `web_fetch` tool: fetches an http(s) URL on the host and returns its main content as
 * Markdown (or text, or raw HTML). Only allowlisted hosts are reached; loopback, private,
 * link-local, metadata and other non-public addresses are refused on the URL and again on every
 * resolved address at connect time; redirects are re-checked hop by hop; time and decoded size
 * are capped.
 *
 * @throws {AllowedHostError} for a bad `allowedHosts` entry; {@link TrustedAddressError} for a bad `trustedAddresses` entry;
 *   {@link WebFetchConfigError} for a `maxConversionMemoryBytes` that is not a positive number.
 * @example
 * const webFetch = createWebFetchTool({ allowedHosts: ['https://*.wikipedia.org'] });
 * const result = await webFetch.execute({ url: 'https://en.wikipedia.org/wiki/WebAssembly' }, context);
 */
export function createWebFetchTool(options: WebFetchToolOptions = {}): Tool<typeof inputSchema> {
  const settings: Settings = {
    timeoutMs: options.timeoutMs ?? WEB_FETCH_DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? WEB_FETCH_DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? WEB_FETCH_DEFAULTS.maxRedirects,
    userAgent: options.userAgent ?? WEB_FETCH_DEFAULTS.userAgent,
    maxConversionMemoryBytes: positiveBytes(
      'maxConversionMemoryBytes',
      options.maxConversionMemoryBytes,
      WEB_FETCH_DEFAULTS.maxConversionMemoryBytes,
    ),
    lookup: options.lookup,
    addresses: createAddressPolicy(options.trustedAddresses ?? []),
    allowed: options.allowedHosts === undefined ? undefined : parseAllowedHosts(options.allowedHosts),
  };
  return defineTool({
    name: 'web_fetch',
    description:
      'Fetch a web page or API response over http(s) and return its content: HTML pages as Markdown of the main content (or plain text, or raw HTML), JSON and text as they are. Only hosts the user allowed can be reached; private and local addresses never.',
    inputSchema,
    permission: 'network',
    concurrencySafe: true,
    execute: (input, context) => fetchPage(settings, input, context),
  });
}
