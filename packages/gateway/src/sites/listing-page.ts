import type { Dirent } from 'node:fs';
import escapeHtml from 'escape-html';

/** The Content-Security-Policy of pages the server writes itself: no script, no plugin, a unique origin. */
export const GENERATED_PAGE_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'none'";

/**
 * The HTML listing of a folder that has no `index.html`: every entry except dotfiles, folders first,
 * names HTML-escaped and links percent-encoded (a file named `<script>` is text, never markup).
 */
export function listingPage(site: string, segments: readonly string[], entries: readonly Dirent[]): string {
  const shown = entries
    .filter((entry) => !entry.name.startsWith('.') && (entry.isFile() || entry.isDirectory()))
    .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name));
  const title = escapeHtml(`${site}: /${segments.map((segment) => `${segment}/`).join('')}`);
  const rows = shown.map((entry) => {
    const suffix = entry.isDirectory() ? '/' : '';
    return `<li><a href="./${encodeURIComponent(entry.name)}${suffix}">${escapeHtml(entry.name)}${suffix}</a></li>`;
  });
  if (segments.length > 0) rows.unshift('<li><a href="../">../</a></li>');
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title>\n<style>body{font:14px system-ui,sans-serif;margin:2em}li{margin:.2em 0}</style></head>\n<body><h1>${title}</h1>\n<ul>\n${rows.join('\n')}\n</ul></body></html>\n`;
}
