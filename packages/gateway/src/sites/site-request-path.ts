/** The longest request target the sites server reads; a longer one is refused with 414. */
export const MAX_SITE_URL_LENGTH = 2048;

/** A request path split into plain file-name segments, or why it was refused. */
export type SiteRequestPath =
  | { ok: true; segments: string[]; trailingSlash: boolean; query: string }
  | { ok: false; status: 400 | 404 | 414; reason: string };

// Control characters (NUL included) have no place in a file name we serve.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Turns a raw request target into file-name segments under the site folder, refusing every form that
 * could name something else: a target that is not a path (`*`, absolute-form), a backslash raw or as
 * `%5c`, a malformed or overlong UTF-8 escape (`%c0%ae`), NUL and other control characters, `.` and
 * `..` segments (raw or encoded; clients remove them before sending, so one that arrives is an
 * attack), and any segment starting with a dot (dotfiles and dot-folders such as `.env` and `.git/`
 * are never served). The target is decoded exactly once: `%252e` names a file literally called
 * `%2e`. Empty segments (`//`) collapse, so a redirect built from the segments can never be `//host`.
 * What remains is still checked against the folder after symbolic links are resolved (see the server).
 */
export function parseSiteRequestPath(target: string): SiteRequestPath {
  if (target.length > MAX_SITE_URL_LENGTH) return { ok: false, status: 414, reason: 'The URL is too long.' };
  if (!target.startsWith('/')) return { ok: false, status: 400, reason: 'The request target must be a path.' };
  const queryAt = target.indexOf('?');
  const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
  const query = queryAt === -1 ? '' : target.slice(queryAt);
  const hashAt = rawPath.indexOf('#');
  const path = hashAt === -1 ? rawPath : rawPath.slice(0, hashAt);
  if (path.includes('\\')) return { ok: false, status: 400, reason: 'A backslash is not allowed in a path.' };
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return { ok: false, status: 400, reason: 'The path has a malformed percent-escape.' };
    }
    if (segment.includes('\\') || segment.includes('/')) {
      return { ok: false, status: 400, reason: 'An encoded slash or backslash is not allowed in a path.' };
    }
    if (CONTROL.test(segment))
      return { ok: false, status: 400, reason: 'Control characters are not allowed in a path.' };
    if (segment === '.' || segment === '..') return { ok: false, status: 400, reason: 'Dot segments are not allowed.' };
    if (segment.startsWith('.')) return { ok: false, status: 404, reason: 'Dotfiles are not served.' };
    segments.push(segment);
  }
  return { ok: true, segments, trailingSlash: path.endsWith('/'), query };
}

/** The site name a `Host` header names (`<name>.<domain>[:port]`), or undefined. */
export function siteNameOfHost(
  host: string | undefined,
  domain: string,
  isName: (name: string) => boolean,
): string | undefined {
  if (host === undefined) return undefined;
  const bare = host.trim().toLowerCase();
  if (bare.startsWith('[')) return undefined;
  const colon = bare.lastIndexOf(':');
  const name = colon === -1 ? bare : bare.slice(0, colon);
  if (colon !== -1 && !/^\d{1,5}$/.test(bare.slice(colon + 1))) return undefined;
  const suffix = `.${domain}`;
  if (!name.endsWith(suffix)) return undefined;
  const label = name.slice(0, -suffix.length);
  return isName(label) ? label : undefined;
}
