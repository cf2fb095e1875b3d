import { readdirSync } from 'node:fs';
import { join, relative as relativePath, resolve, sep } from 'node:path';

/** Most entries {@link folderHoldsMatch} looks at; a bigger folder counts as holding a match. */
export const MAX_PROTECTED_SCAN_ENTRIES = 10_000;

/**
 * Whether the folder `root/relative` holds, at any depth, an entry whose root-relative path
 * `matches` (links are not followed). Used for patterns that can match below any folder
 * (`**\/AGENTS.md`), where the names alone cannot say whether a delete or rename would touch one.
 * A folder with more than {@link MAX_PROTECTED_SCAN_ENTRIES} entries counts as holding one: the
 * answer errs on the side of refusing.
 */
export function folderHoldsMatch(root: string, relative: string, matches: (relative: string) => boolean): boolean {
  const start = resolve(root, relative === '.' ? '' : relative);
  const fromRoot = relativePath(root, start);
  if (fromRoot === '..' || fromRoot.startsWith(`..${sep}`)) return false;
  const pending = [fromRoot];
  let seen = 0;
  while (pending.length > 0) {
    const folder = pending.pop() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      seen += 1;
      if (seen > MAX_PROTECTED_SCAN_ENTRIES) return true;
      const child = folder === '' ? entry.name : `${folder}/${entry.name}`;
      const childRelative = sep === '/' ? child : child.split(sep).join('/');
      if (matches(childRelative)) return true;
      if (entry.isDirectory()) pending.push(child);
    }
  }
  return false;
}
