import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkPath, createPathPolicy, type PathAccess, type PathPolicy } from '@boxagnts/wasm-tools';
import { Hono } from 'hono';
import { GatewayError } from '../gateway-error.js';
import type { CreateFolderJson, FileListJson, MoveFileJson, WrittenFileJson } from './api-types/index.js';
import { etagOf, preconditionProblem } from './file-etag.js';
import type { GatewayEnv, GatewayServices } from './gateway-env.js';
import { readJsonBody } from './read-body.js';
import { createFolderSchema, moveFileSchema, writeFileSchema } from './schemas.js';

/** Largest file `GET /files/content` returns (bytes). */
export const MAX_FILE_READ_BYTES = 20 * 1024 * 1024;

async function resolvePath(policy: PathPolicy, path: string | undefined, access: PathAccess) {
  if (path === undefined || path === '') {
    throw new GatewayError({ reason: 'invalid-request', message: 'Missing "path": pass a path relative to root/.' });
  }
  const check = await checkPath(policy, path, access);
  if (!check.ok) {
    throw new GatewayError({
      reason: check.code === 'invalid' ? 'invalid-request' : 'forbidden',
      message: `Path "${path}" refused (${check.code}): ${check.error}`,
    });
  }
  return check.path;
}

/** Runs file writes one at a time (a conditional save's check and write must not interleave with another write). */
class WriteQueue {
  private last: Promise<unknown> = Promise.resolve();
  run<T>(write: () => Promise<T>): Promise<T> {
    const next = this.last.then(write, write);
    this.last = next.catch(() => undefined);
    return next;
  }
}

function missing(path: string): GatewayError {
  return new GatewayError({ reason: 'not-found', message: `No file or folder "${path}" under root/.` });
}

/**
 * Files under the workspace's `root/`, through the same path policy as the sandboxed tools: no
 * path outside the root (`..`, absolute paths, outward symlinks), no write to a protected path, no
 * read of a secret path.
 */
export function fileRoutes(services: GatewayServices): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  const policy = () => createPathPolicy({ root: services.workspace.paths.root });
  const writes = new WriteQueue();
  app.get('/files', async (context) => {
    const path = context.req.query('path') ?? '.';
    const resolved = await resolvePath(policy(), path, 'read');
    if (!resolved.exists) throw missing(path);
    const entries = await readdir(resolved.absolute, { withFileTypes: true }).catch(() => {
      throw new GatewayError({
        reason: 'invalid-request',
        message: `"${path}" is not a folder: read it with GET /files/content.`,
      });
    });
    const list: FileListJson['entries'] = [];
    for (const entry of entries) {
      const child = resolved.relative === '.' ? entry.name : `${resolved.relative}/${entry.name}`;
      if (policy().isSecret(child)) continue;
      const info = await stat(`${resolved.absolute}/${entry.name}`).catch(() => undefined);
      list.push({
        name: entry.name,
        path: child,
        type: entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'file',
        size: info?.size ?? 0,
        modifiedAt: info?.mtimeMs ?? 0,
      });
    }
    list.sort((a, b) => a.name.localeCompare(b.name));
    const listing: FileListJson = { path: resolved.relative, entries: list };
    return context.json(listing);
  });
  app.get('/files/content', async (context) => {
    const path = context.req.query('path');
    const resolved = await resolvePath(policy(), path, 'read');
    if (!resolved.exists) throw missing(String(path));
    const info = await stat(resolved.absolute);
    if (!info.isFile())
      throw new GatewayError({
        reason: 'invalid-request',
        message: `"${path}" is not a file: list it with GET /files.`,
      });
    if (info.size > MAX_FILE_READ_BYTES) {
      throw new GatewayError({
        reason: 'payload-too-large',
        message: `"${path}" is ${info.size} bytes; at most ${MAX_FILE_READ_BYTES} are served.`,
      });
    }
    const bytes = await readFile(resolved.absolute);
    return context.body(bytes, 200, {
      'content-type': 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      etag: etagOf(bytes),
      'cache-control': 'no-store',
    });
  });
  app.put('/files/content', async (context) => {
    const body = await readJsonBody(context, writeFileSchema);
    const resolved = await resolvePath(policy(), body.path, 'write');
    const bytes = Buffer.from(body.content, body.encoding === 'base64' ? 'base64' : 'utf8');
    // Check and write in one turn of the queue, so two conditional saves cannot both pass the check.
    const existed = await writes.run(async () => {
      const current = await readFile(resolved.absolute).catch(() => undefined);
      const ifMatch = body.ifMatch;
      const problem = ifMatch === undefined ? undefined : preconditionProblem(ifMatch, current);
      if (problem !== undefined) {
        throw new GatewayError({
          reason: 'conflict',
          message: `"${body.path}" ${problem}: reload it and apply your change again (or save without ifMatch to overwrite).`,
        });
      }
      await mkdir(dirname(resolved.absolute), { recursive: true });
      await writeFile(resolved.absolute, bytes);
      return current !== undefined;
    });
    const written: WrittenFileJson = { path: resolved.relative, size: bytes.length, etag: etagOf(bytes) };
    return context.json(written, existed ? 200 : 201);
  });
  app.post('/files/upload', async (context) => {
    const form = await context.req.formData().catch(() => {
      throw new GatewayError({
        reason: 'invalid-request',
        message: 'Send multipart/form-data with a "file" field and an optional "path" (folder).',
      });
    });
    const file = form.get('file');
    if (file === null || typeof file === 'string') {
      throw new GatewayError({
        reason: 'invalid-request',
        message: 'The form has no "file" field: add the file to upload.',
      });
    }
    const folder = String(form.get('path') ?? '.');
    const target = folder === '.' || folder === '' ? file.name : `${folder.replace(/\/+$/, '')}/${file.name}`;
    const resolved = await resolvePath(policy(), target, 'write');
    await mkdir(dirname(resolved.absolute), { recursive: true });
    const bytes = Buffer.from(await file.arrayBuffer());
    await writes.run(() => writeFile(resolved.absolute, bytes));
    const written: WrittenFileJson = { path: resolved.relative, size: bytes.length, etag: etagOf(bytes) };
    return context.json(written, 201);
  });
  app.post('/files/move', async (context) => {
    const body = await readJsonBody(context, moveFileSchema);
    const current = policy();
    const from = await resolvePath(current, body.from, 'write');
    const to = await resolvePath(current, body.to, 'write');
    if (!from.exists) throw missing(body.from);
    if (to.exists)
      throw new GatewayError({
        reason: 'conflict',
        message: `"${body.to}" exists: delete it first or pick another name.`,
      });
    if (current.containsProtected(from.relative)) {
      throw new GatewayError({
        reason: 'forbidden',
        message: `"${body.from}" holds a protected path and cannot be moved.`,
      });
    }
    await mkdir(dirname(to.absolute), { recursive: true });
    await rename(from.absolute, to.absolute);
    const moved: MoveFileJson = { from: from.relative, to: to.relative };
    return context.json(moved);
  });
  app.post('/files/folder', async (context) => {
    const body = await readJsonBody(context, createFolderSchema);
    const resolved = await resolvePath(policy(), body.path, 'write');
    if (resolved.exists) {
      throw new GatewayError({
        reason: 'conflict',
        message: `"${body.path}" exists: pick another name.`,
      });
    }
    await mkdir(resolved.absolute, { recursive: true });
    const created: CreateFolderJson = { path: resolved.relative };
    return context.json(created, 201);
  });
  app.delete('/files', async (context) => {
    const path = context.req.query('path');
    const current = policy();
    const resolved = await resolvePath(current, path, 'write');
    if (!resolved.exists) throw missing(String(path));
    if (resolved.relative === '.' || current.containsProtected(resolved.relative)) {
      throw new GatewayError({
        reason: 'forbidden',
        message: `"${path}" is the root or holds a protected path and cannot be deleted.`,
      });
    }
    await rm(resolved.absolute, { recursive: true });
    return context.body(null, 204);
  });
  return app;
}
