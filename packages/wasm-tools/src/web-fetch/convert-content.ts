import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

export {
  type ContentKind,
  classifyContentType,
  decodeText,
  mediaType,
  sniffContent,
} from './content-kind.js';

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
