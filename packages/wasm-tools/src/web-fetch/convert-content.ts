import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** How web_fetch treats a response body. */
export type ContentKind = 'html' | 'text' | 'binary';

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-ndjson',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/graphql',
  'application/csv',
  'application/x-www-form-urlencoded',
]);

/** The media type of a `Content-Type` header, lower case, without parameters (`''` when absent). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Classifies by `Content-Type`; `undefined` means "unknown, sniff the bytes". */
export function classifyContentType(contentType: string | undefined): ContentKind | undefined {
  const type = mediaType(contentType);
  if (type === '') return undefined;
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml'))
    return 'text';
  return 'binary';
}

/** Guesses the kind of an untyped body from its first bytes (NUL bytes mean binary). */
export function sniffContent(bytes: Buffer): ContentKind {
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  const text = head.toString('latin1').trimStart().toLowerCase();
  return text.startsWith('<!doctype html') || text.startsWith('<html') ? 'html' : 'text';
}

/** Decodes text in the charset the `Content-Type` names (UTF-8 when absent or unknown). */
export function decodeText(bytes: Buffer, contentType: string | undefined): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** A page reduced to its main content. */
export interface ExtractedPage {
  title: string | undefined;
  /** The main content's HTML, links made absolute, scripts and styles removed. */
  html: string;
}

/** The part of linkedom's DOM used here (the package's types need the DOM lib, which Node code lacks). */
interface DomElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
  after(...nodes: unknown[]): void;
  readonly innerHTML: string;
  readonly textContent: string | null;
}

interface DomDocument {
  /** `null` for a document with no element at all (an empty body, only a doctype). */
  readonly documentElement: DomElement | null;
  readonly title: string;
  readonly body: DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement>;
  createTextNode(text: string): unknown;
  toString(): string;
}

function parseDocument(html: string): DomDocument {
  return parseHTML(html).document as unknown as DomDocument;
}

const DROPPED_ELEMENTS = 'script, style, noscript, template, iframe, object, embed, svg, canvas';

function absolutise(document: DomDocument, baseUrl: string): void {
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of Array.from(document.querySelectorAll(selector))) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      try {
        element.setAttribute(attribute, new URL(value, baseUrl).href);
      } catch {
        element.removeAttribute(attribute);
      }
    }
  }
}

/**
 * Extracts the main content with Readability (on a linkedom document); falls back to the whole
 * body when Readability finds no article (short or unusual pages). A document with no element
 * (empty, blank, only a doctype) gives empty content.
 */
export function extractMainContent(html: string, baseUrl: string): ExtractedPage {
  const document = parseDocument(html);
  // linkedom throws on `title`, `body` and Readability for a document without any element.
  if (document.documentElement === null) return { title: undefined, html: '' };
  for (const element of Array.from(document.querySelectorAll(DROPPED_ELEMENTS))) element.remove();
  absolutise(document, baseUrl);
  const title = document.title?.trim() || undefined;
  const fallback = document.body?.innerHTML ?? document.toString();
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  } catch {
    article = null;
  }
  const content = article?.content?.trim();
  return { title: article?.title?.trim() || title, html: content !== undefined && content !== '' ? content : fallback };
}

/** HTML to Markdown (ATX headings, fenced code). */
export function htmlToMarkdown(html: string): string {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'template']);
  return turndown
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const BLOCK_ELEMENTS =
  'p, div, section, article, header, footer, main, aside, nav, h1, h2, h3, h4, h5, h6, li, pre, blockquote, tr, table, ul, ol, dl, dt, dd, figure, figcaption, br, hr';

/** HTML to plain text, with line breaks after block elements. */
export function htmlToText(html: string): string {
  const document = parseDocument(`<!doctype html><html><body>${html}</body></html>`);
  for (const element of Array.from(document.querySelectorAll(BLOCK_ELEMENTS))) {
    element.after(document.createTextNode('\n'));
  }
  return (document.body?.textContent ?? '')
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\r\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
