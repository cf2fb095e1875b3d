/** One entry of a folder listing. */
export interface FileEntryJson {
  name: string;
  /** Relative to root/, with `/` separators. */
  path: string;
  type: 'file' | 'directory' | 'symlink';
  size: number;
  /** Epoch milliseconds. */
  modifiedAt: number;
}

/** `GET /files?path=`. */
export interface FileListJson {
  /** The folder listed, relative to root/ (`.` for the root). */
  path: string;
  entries: FileEntryJson[];
}

/** `PUT /files/content` body. `ifMatch` is the `etag` the client read: the write is refused (412) if the file changed since. */
export interface WriteFileBody {
  path: string;
  content: string;
  encoding?: 'utf8' | 'base64';
  /** The file's `etag` as read (header `ETag` of `GET /files/content`), or `"absent"` to create only if it does not exist. */
  ifMatch?: string;
}

/** `PUT /files/content` and `POST /files/upload` answers. */
export interface WrittenFileJson {
  path: string;
  size: number;
  /** The written file's new etag (send it as `ifMatch` on the next save). */
  etag: string;
}

/** `POST /files/move` body and answer. */
export interface MoveFileJson {
  from: string;
  to: string;
}

/** `POST /files/folder` body and answer: creates a folder (and its parents). */
export interface CreateFolderJson {
  path: string;
}
