import type {
  CreateFolderJson,
  FileListJson,
  MoveFileJson,
  WrittenFileJson,
} from '../../../src/http/api-types/index.js';
import { request, send } from './http';

export function listFolder(path: string, signal?: AbortSignal) {
  return request<FileListJson>('/files', { query: { path }, ...(signal === undefined ? {} : { signal }) });
}

/** A file's bytes and the tag to send back as `ifMatch` when saving it. */
export async function readFileBytes(path: string, signal?: AbortSignal): Promise<{ bytes: Uint8Array; etag: string }> {
  const response = await send('/files/content', {
    query: { path },
    headers: { accept: 'application/octet-stream' },
    ...(signal === undefined ? {} : { signal }),
  });
  return { bytes: new Uint8Array(await response.arrayBuffer()), etag: response.headers.get('etag') ?? '' };
}

/** Saves text; with `ifMatch` the gateway refuses (409) when the file changed since it was read. */
export function writeTextFile(path: string, content: string, ifMatch?: string) {
  return request<WrittenFileJson>('/files/content', {
    method: 'PUT',
    body: ifMatch === undefined ? { path, content } : { path, content, ifMatch },
  });
}

export function uploadFile(folder: string, file: File) {
  const form = new FormData();
  form.set('file', file, file.name);
  form.set('path', folder);
  return request<WrittenFileJson>('/files/upload', { method: 'POST', body: form });
}

export function moveFile(from: string, to: string) {
  return request<MoveFileJson>('/files/move', { method: 'POST', body: { from, to } });
}

export function deleteFile(path: string) {
  return request<void>('/files', { method: 'DELETE', query: { path } });
}

export function createFolder(path: string) {
  return request<CreateFolderJson>('/files/folder', { method: 'POST', body: { path } });
}
