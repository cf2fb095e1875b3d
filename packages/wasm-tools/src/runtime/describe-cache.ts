import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './cache-dir.js';

/** The file beside a transpiled component that keeps what its `describe()` returned. */
const DESCRIBE_FILE = 'describe.json';

/**
 * What a function component's `describe()` returned when it was last loaded, or `undefined`.
 * The transpiled folder is keyed by the component's hash and `describe()` runs with no
 * capabilities, so the list is the same every time: keeping it lets a new runtime skip the
 * describe call (a worker start and an instantiation, 0.2-0.5 s) when it loads the component.
 * The caller still validates it (see parseDescriptors).
 */
export async function readCachedDescriptors(transpiledDir: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(join(transpiledDir, DESCRIBE_FILE), 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Keeps a successful `describe()` result beside the transpiled component (written atomically). */
export async function writeCachedDescriptors(transpiledDir: string, descriptors: unknown): Promise<void> {
  try {
    await writeFileAtomic(join(transpiledDir, DESCRIBE_FILE), JSON.stringify(descriptors));
  } catch {
    // A read-only or vanished cache only costs the next load a describe call.
  }
}
