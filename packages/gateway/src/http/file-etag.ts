import { createHash } from 'node:crypto';

/** What `ifMatch` says when the client means "create it; refuse if it exists". */
export const ETAG_ABSENT = 'absent';

/**
 * A file's entity tag: a hash of its bytes, so two saves within one mtime tick, or a file put back
 * as it was, are told apart correctly (an mtime is neither).
 */
export function etagOf(bytes: Uint8Array): string {
  return `"sha256-${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether a write made with `ifMatch` (the tag the client read, or {@link ETAG_ABSENT}) may go ahead
 * over the file as it is now (`current`: its bytes, or undefined when it does not exist); else why not.
 */
export function preconditionProblem(ifMatch: string, current: Uint8Array | undefined): string | undefined {
  if (current === undefined) {
    return ifMatch === ETAG_ABSENT ? undefined : 'was deleted since you read it';
  }
  if (ifMatch === ETAG_ABSENT) return 'exists already';
  return etagOf(current) === ifMatch ? undefined : 'changed since you read it';
}
