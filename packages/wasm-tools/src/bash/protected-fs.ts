import type { BufferEncoding, CpOptions, FileContent, FsStat, IFileSystem, MkdirOptions, RmOptions } from 'just-bash';
import { checkPath, type PathPolicy } from '../policy/path-policy.js';
import { compileProtectedPaths, type ProtectedMatcher } from '../policy/protected-paths.js';

type ReadFileOptions = Parameters<IFileSystem['readFile']>[1];
type WriteFileOptions = Parameters<IFileSystem['writeFile']>[2];
type DirentEntries = Awaited<ReturnType<NonNullable<IFileSystem['readdirWithFileTypes']>>>;

/** A refused filesystem change, shaped like a Node `fs` error so shell commands print it plainly. */
class RefusedChangeError extends Error {
  readonly code: string;

  constructor(code: 'EACCES' | 'EPERM', operation: string, path: string, reason: string) {
    super(`${code}: ${reason}, ${operation} '${path}'`);
    this.name = 'Error';
    this.code = code;
  }
}

function relativeOf(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '.' : trimmed;
}

/**
 * Wraps the shell's view of the working root so every change (write, append, mkdir, delete,
 * copy, move, chmod, touch) is checked against the path policy first: protected paths such as
 * `.git` stay read-only from `bash` too. Paths arrive as the mounted filesystem sees them (`/` is
 * the root), which is the policy's guest form. Links are refused outright: a symlink could point
 * out of the root, and a hard link would give a protected file a second, writable name.
 */
export class ProtectedFs implements IFileSystem {
  readonly #inner: IFileSystem;
  readonly #policy: PathPolicy;
  readonly #secrets: ProtectedMatcher;

  constructor(inner: IFileSystem, policy: PathPolicy) {
    this.#inner = inner;
    this.#policy = policy;
    this.#secrets = compileProtectedPaths(policy.secretPaths);
  }

  async #checkWrite(operation: string, path: string): Promise<void> {
    const check = await checkPath(this.#policy, path, 'write');
    if (!check.ok) {
      const reason = check.code === 'protected' ? 'protected path, read-only' : check.error;
      throw new RefusedChangeError('EACCES', operation, path, reason);
    }
  }

  /** A change to `path` as a whole (recursive delete, rename) must not touch anything protected inside it. */
  async #checkWhole(operation: string, path: string): Promise<void> {
    const relative = relativeOf(path);
    if (this.#secrets.containsProtected(relative)) {
      throw new RefusedChangeError('EACCES', operation, path, 'holds a secret path');
    }
    if (this.#policy.containsProtected(relative)) {
      throw new RefusedChangeError('EACCES', operation, path, 'holds a protected path, read-only');
    }
    await this.#checkWrite(operation, path);
  }

  /** Secret paths (the workspace's keys) are refused for reading too, by name or through a link. */
  async #checkRead(operation: string, path: string): Promise<void> {
    const relative = relativeOf(path);
    if (this.#policy.isSecret(relative)) throw new RefusedChangeError('EACCES', operation, path, 'secret path');
    const check = await checkPath(this.#policy, path, 'read');
    if (!check.ok && check.code === 'protected') throw new RefusedChangeError('EACCES', operation, path, 'secret path');
  }

  async readFile(path: string, options?: ReadFileOptions): Promise<string> {
    await this.#checkRead('open', path);
    return this.#inner.readFile(path, options);
  }

  async readFileBuffer(path: string): Promise<Uint8Array> {
    await this.#checkRead('open', path);
    return this.#inner.readFileBuffer(path);
  }

  readFileBytes(path: string): ReturnType<NonNullable<IFileSystem['readFileBytes']>> {
    const inner = this.#inner;
    return this.#checkRead('open', path).then(() =>
      inner.readFileBytes !== undefined
        ? inner.readFileBytes(path)
        : inner.readFileBuffer(path).then((bytes) => Buffer.from(bytes).toString('latin1')),
    ) as ReturnType<NonNullable<IFileSystem['readFileBytes']>>;
  }

  async writeFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void> {
    await this.#checkWrite('open', path);
    return this.#inner.writeFile(path, content, options);
  }

  async appendFile(path: string, content: FileContent, options?: WriteFileOptions | BufferEncoding): Promise<void> {
    await this.#checkWrite('open', path);
    return this.#inner.appendFile(path, content, options);
  }

  exists(path: string): Promise<boolean> {
    return this.#inner.exists(path);
  }

  stat(path: string): Promise<FsStat> {
    return this.#inner.stat(path);
  }

  lstat(path: string): Promise<FsStat> {
    return this.#inner.lstat(path);
  }

  async mkdir(path: string, options?: MkdirOptions): Promise<void> {
    await this.#checkWrite('mkdir', path);
    return this.#inner.mkdir(path, options);
  }

  readdir(path: string): Promise<string[]> {
    return this.#inner.readdir(path);
  }

  readdirWithFileTypes(path: string): Promise<DirentEntries> {
    const inner = this.#inner;
    if (inner.readdirWithFileTypes !== undefined) return inner.readdirWithFileTypes(path);
    return inner.readdir(path).then((names) =>
      Promise.all(
        names.map(async (name) => {
          const stat = await inner.lstat(`${path.replace(/\/+$/, '')}/${name}`);
          return { name, isFile: stat.isFile, isDirectory: stat.isDirectory, isSymbolicLink: stat.isSymbolicLink };
        }),
      ),
    );
  }

  async rm(path: string, options?: RmOptions): Promise<void> {
    await this.#checkWhole('rm', path);
    return this.#inner.rm(path, options);
  }

  /**
   * A copy reads its source: a secret file, a folder holding one (by name), and any file in a
   * copied tree that the policy refuses to read (a hard link to a secret) stop the whole copy.
   */
  async #checkCopySource(path: string): Promise<void> {
    await this.#checkRead('cp', path);
    const relative = relativeOf(path);
    if (this.#secrets.containsProtected(relative)) {
      throw new RefusedChangeError('EACCES', 'cp', path, 'holds a secret path');
    }
    const stat = await this.#inner.lstat(path).catch(() => undefined);
    if (stat?.isDirectory !== true) return;
    const base = path.replace(/\/+$/, '');
    for (const name of await this.#inner.readdir(path)) await this.#checkCopySource(`${base}/${name}`);
  }

  async cp(source: string, destination: string, options?: CpOptions): Promise<void> {
    await this.#checkCopySource(source);
    await this.#checkWhole('cp', destination);
    return this.#inner.cp(source, destination, options);
  }

  async mv(source: string, destination: string): Promise<void> {
    await this.#checkWhole('rename', source);
    await this.#checkWhole('rename', destination);
    return this.#inner.mv(source, destination);
  }

  resolvePath(base: string, path: string): string {
    return this.#inner.resolvePath(base, path);
  }

  getAllPaths(): string[] {
    return this.#inner.getAllPaths();
  }

  async chmod(path: string, mode: number): Promise<void> {
    await this.#checkWrite('chmod', path);
    return this.#inner.chmod(path, mode);
  }

  async symlink(_target: string, linkPath: string): Promise<void> {
    throw new RefusedChangeError('EPERM', 'symlink', linkPath, 'links cannot be created in the sandbox');
  }

  async link(_existingPath: string, newPath: string): Promise<void> {
    throw new RefusedChangeError('EPERM', 'link', newPath, 'links cannot be created in the sandbox');
  }

  readlink(path: string): Promise<string> {
    return this.#inner.readlink(path);
  }

  realpath(path: string): Promise<string> {
    return this.#inner.realpath(path);
  }

  async utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    await this.#checkWrite('utime', path);
    return this.#inner.utimes(path, atime, mtime);
  }
}
