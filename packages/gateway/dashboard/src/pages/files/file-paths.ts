/** The folders from root/ down to `path` (`.` is root/), each with its label, for breadcrumbs. */
export function breadcrumbsOf(path: string): { label: string; path: string }[] {
  const crumbs = [{ label: 'root', path: '.' }];
  if (path === '.' || path === '') return crumbs;
  const parts = path.split('/').filter(Boolean);
  for (const [index, part] of parts.entries()) crumbs.push({ label: part, path: parts.slice(0, index + 1).join('/') });
  return crumbs;
}

/** `name` inside `folder` (root/ is `.`). */
export function childPath(folder: string, name: string): string {
  return folder === '.' || folder === '' ? name : `${folder}/${name}`;
}

/** The folder holding `path`. */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '.' : path.slice(0, slash);
}

/** The last part of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Sizes as people read them. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Largest file opened for editing in the page (larger ones are downloaded). */
export const MAX_EDIT_BYTES = 2 * 1024 * 1024;

/**
 * The file's text, or undefined when it is not text: a NUL byte in its first 8 KB or bytes that are
 * not UTF-8 mean binary, which is offered as a download instead of being opened as text.
 */
export function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
