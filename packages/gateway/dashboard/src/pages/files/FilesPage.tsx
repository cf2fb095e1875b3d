import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { FileEntryJson } from '../../../../src/http/api-types/index.js';
import {
  createFolder,
  deleteFile,
  listFolder,
  moveFile,
  readFileBytes,
  uploadFile,
  writeTextFile,
} from '../../api/files';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/PageHeader';
import { downloadBlob, formatTime } from '../sessions/format';
import { Breadcrumbs } from './Breadcrumbs';
import { FileEditor } from './FileEditor';
import { baseName, childPath, formatSize, parentOf } from './file-paths';
import './files.css';

type Action =
  | { kind: 'new-folder' }
  | { kind: 'new-file' }
  | { kind: 'move'; entry: FileEntryJson }
  | { kind: 'delete'; entry: FileEntryJson }
  | undefined;

/** The agents' root/: browse folders, open, edit and save text files, upload, download, move, delete. */
export function FilesPage() {
  const [params, setParams] = useSearchParams();
  const folder = params.get('path') ?? '.';
  const opened = params.get('file') ?? undefined;
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [action, setAction] = useState<Action>();
  const [name, setName] = useState('');

  const listing = useQuery({
    queryKey: ['files', folder],
    queryFn: ({ signal }) => listFolder(folder, signal),
  });
  const go = (next: { path?: string; file?: string | undefined }) => {
    const values = new URLSearchParams();
    const path = next.path ?? folder;
    if (path !== '.') values.set('path', path);
    const file = 'file' in next ? next.file : opened;
    if (file !== undefined) values.set('file', file);
    setParams(values);
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['files'] });
  const close = () => setAction(undefined);

  const upload = useMutation({
    mutationFn: async (files: File[]) => {
      for (const file of files) await uploadFile(folder, file);
    },
    onSuccess: refresh,
  });
  const create = useMutation({
    mutationFn: async ({ kind, value }: { kind: 'new-folder' | 'new-file'; value: string }) => {
      const path = childPath(folder, value);
      if (kind === 'new-folder') await createFolder(path);
      // A new file must not replace one of that name: `absent` makes the gateway refuse it if it exists.
      else await writeTextFile(path, '', 'absent');
      return { kind, path };
    },
    onSuccess: async (created) => {
      close();
      await refresh();
      if (created.kind === 'new-file') go({ file: created.path });
    },
  });
  const move = useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) => moveFile(from, to),
    onSuccess: async (moved) => {
      close();
      queryClient.removeQueries({ queryKey: ['file', moved.from] });
      await refresh();
      if (opened === moved.from) go({ file: moved.to });
    },
  });
  const remove = useMutation({
    mutationFn: (path: string) => deleteFile(path),
    onSuccess: async (_, path) => {
      close();
      queryClient.removeQueries({ queryKey: ['file', path] });
      await refresh();
      if (opened !== undefined && (opened === path || opened.startsWith(`${path}/`))) go({ file: undefined });
    },
  });
  const download = useMutation({
    mutationFn: async (path: string) => ({ path, ...(await readFileBytes(path)) }),
    onSuccess: ({ path, bytes }) => downloadBlob(new Blob([bytes as BlobPart]), baseName(path)),
  });

  const entries = listing.data?.entries ?? [];
  return (
    <>
      <PageHeader title="Files">
        <input
          ref={fileInput}
          type="file"
          multiple
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            if (files.length > 0) upload.mutate(files);
          }}
        />
        <button type="button" className="btn" disabled={upload.isPending} onClick={() => fileInput.current?.click()}>
          {upload.isPending ? 'Uploading…' : 'Upload files'}
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setName('');
            create.reset();
            setAction({ kind: 'new-folder' });
          }}
        >
          New folder
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setName('');
            create.reset();
            setAction({ kind: 'new-file' });
          }}
        >
          New file
        </button>
      </PageHeader>
      <Breadcrumbs path={listing.data?.path ?? folder} onOpen={(path) => go({ path })} />
      <ErrorNotice error={upload.error} label="Upload failed" />
      <ErrorNotice error={download.error} label="Download failed" />
      <ErrorNotice error={listing.error} label="Could not list the folder" />
      {upload.isSuccess ? (
        <p className="muted" role="status">
          Uploaded.
        </p>
      ) : null}
      <div className="files-layout">
        <div className="files-list">
          {listing.isPending ? <p role="status">Loading the folder…</p> : null}
          {listing.data !== undefined && entries.length === 0 ? (
            <div className="card">
              <p>This folder is empty. Upload files or create one.</p>
            </div>
          ) : null}
          {entries.length === 0 ? null : (
            <table className="table">
              <caption className="visually-hidden">Contents of {folder === '.' ? 'root' : folder}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Modified</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {folder === '.' ? null : (
                  <tr>
                    <td colSpan={4}>
                      <button type="button" className="link-button" onClick={() => go({ path: parentOf(folder) })}>
                        .. (up one folder)
                      </button>
                    </td>
                  </tr>
                )}
                {entries.map((entry) => (
                  <tr key={entry.path} aria-current={entry.path === opened ? 'true' : undefined}>
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        aria-label={entry.type === 'directory' ? `Open folder ${entry.name}` : `Open ${entry.name}`}
                        onClick={() =>
                          entry.type === 'directory'
                            ? go({ path: entry.path, file: undefined })
                            : go({ file: entry.path })
                        }
                      >
                        {entry.type === 'directory' ? `${entry.name}/` : entry.name}
                      </button>
                    </td>
                    <td className="num">{entry.type === 'directory' ? '' : formatSize(entry.size)}</td>
                    <td>{formatTime(entry.modifiedAt)}</td>
                    <td>
                      <div className="row entry-actions">
                        {entry.type === 'directory' ? null : (
                          <button
                            type="button"
                            className="btn btn-ghost"
                            aria-label={`Download ${entry.name}`}
                            onClick={() => download.mutate(entry.path)}
                          >
                            Download
                          </button>
                        )}
                        <button
                          type="button"
                          className="btn btn-ghost"
                          aria-label={`Move or rename ${entry.name}`}
                          onClick={() => {
                            setName(entry.path);
                            move.reset();
                            setAction({ kind: 'move', entry });
                          }}
                        >
                          Move
                        </button>
                        <button
                          type="button"
                          className="btn btn-ghost btn-danger"
                          aria-label={`Delete ${entry.name}`}
                          onClick={() => {
                            remove.reset();
                            setAction({ kind: 'delete', entry });
                          }}
                        >
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
        {opened === undefined ? null : (
          <FileEditor key={opened} path={opened} onClose={() => go({ file: undefined })} />
        )}
      </div>

      <Dialog
        open={action?.kind === 'new-folder' || action?.kind === 'new-file'}
        title={action?.kind === 'new-folder' ? 'New folder' : 'New file'}
        onClose={close}
      >
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            if (action?.kind === 'new-folder' || action?.kind === 'new-file')
              create.mutate({ kind: action.kind, value: name.trim() });
          }}
        >
          <label className="field">
            <span>Name (in {folder === '.' ? 'root' : folder})</span>
            <input required value={name} onChange={(event) => setName(event.target.value)} />
          </label>
          <ErrorNotice error={create.error} label="Could not create it" />
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={create.isPending || name.trim() === ''}>
              Create
            </button>
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog
        open={action?.kind === 'move'}
        title={`Move or rename ${action?.kind === 'move' ? action.entry.name : ''}`}
        onClose={close}
      >
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            if (action?.kind === 'move') move.mutate({ from: action.entry.path, to: name.trim() });
          }}
        >
          <label className="field">
            <span>New path (from root)</span>
            <input required value={name} onChange={(event) => setName(event.target.value)} />
          </label>
          <ErrorNotice error={move.error} label="Move failed" />
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={move.isPending || name.trim() === ''}>
              Move
            </button>
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog open={action?.kind === 'delete'} title="Delete?" onClose={close}>
        {action?.kind === 'delete' ? (
          <div className="stack">
            <p>
              {action.entry.type === 'directory'
                ? `The folder “${action.entry.path}” and everything in it will be deleted.`
                : `“${action.entry.path}” will be deleted.`}{' '}
              This cannot be undone.
            </p>
            <ErrorNotice error={remove.error} label="Delete failed" />
            <div className="row">
              <button
                type="button"
                className="btn btn-danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate(action.entry.path)}
              >
                Delete for good
              </button>
              <button type="button" className="btn" onClick={close}>
                Cancel
              </button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </>
  );
}
