// Content-type classification and decoding for web_fetch: light, loaded with the tool (the HTML
// conversion in convert-content.ts, with linkedom, Readability and Turndown, loads only in the
// conversion thread).

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
