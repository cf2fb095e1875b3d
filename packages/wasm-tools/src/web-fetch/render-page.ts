import { extractMainContent, htmlToMarkdown, htmlToText } from './convert-content.js';

/** The formats web_fetch returns. */
export type WebFetchFormat = 'markdown' | 'text' | 'html';

/** One HTML page to convert (plain data, sent to the conversion thread). */
export interface RenderTask {
  html: string;
  url: string;
  format: Exclude<WebFetchFormat, 'html'>;
}

/** A converted page. */
export interface RenderedPage {
  title?: string;
  content: string;
}

/** Reduces a page to its main content (Readability) as Markdown or plain text. */
export function renderPage(task: RenderTask): RenderedPage {
  const page = extractMainContent(task.html, task.url);
  const content = task.format === 'markdown' ? htmlToMarkdown(page.html) : htmlToText(page.html);
  return page.title === undefined ? { content } : { title: page.title, content };
}
