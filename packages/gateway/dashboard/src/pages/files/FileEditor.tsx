import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { readFileBytes, writeTextFile } from '../../api/files';
import { isApiError } from '../../api/http';
import { ErrorNotice } from '../../components/ErrorNotice';
import { downloadBlob } from '../sessions/format';
import { baseName, formatSize, MAX_EDIT_BYTES, textOf } from './file-paths';

/**
 * A file opened from the listing: text is shown in an editor and saved with the tag it was read
 * with, so a file someone changed meanwhile is not overwritten unasked; binary files are offered
 * as a download instead.
 */
export function FileEditor({ path, onClose }: { path: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const editorId = useId();
  const file = useQuery({
    queryKey: ['file', path],
    queryFn: ({ signal }) => readFileBytes(path, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [draft, setDraft] = useState<string | undefined>();
  const [etag, setEtag] = useState('');
  const [savedAt, setSavedAt] = useState<number | undefined>();
  const text = file.data === undefined ? undefined : textOf(file.data.bytes);

  useEffect(() => {
    if (file.data === undefined) return;
    setDraft(textOf(file.data.bytes));
    setEtag(file.data.etag);
  }, [file.data]);
  useEffect(() => {
    if (path !== '') setSavedAt(undefined);
  }, [path]);

  const save = useMutation({
    mutationFn: (options: { overwrite: boolean }) =>
      writeTextFile(path, draft ?? '', options.overwrite || etag === '' ? undefined : etag),
    onSuccess: async (written) => {
      setEtag(written.etag);
      setSavedAt(Date.now());
      queryClient.setQueryData(['file', path], { bytes: new TextEncoder().encode(draft ?? ''), etag: written.etag });
      await queryClient.invalidateQueries({ queryKey: ['files'] });
    },
  });
  const conflict = isApiError(save.error) && save.error.status === 409;
  const dirty = draft !== undefined && text !== undefined && draft !== text;
  const name = baseName(path);

  return (
    <section className="card file-editor" aria-labelledby={`${editorId}-title`}>
      <div className="row file-editor-head">
        <h2 id={`${editorId}-title`} className="grow">
          {path}
        </h2>
        <button
          type="button"
          className="btn"
          disabled={file.data === undefined}
          onClick={() => file.data !== undefined && downloadBlob(new Blob([file.data.bytes as BlobPart]), name)}
        >
          Download
        </button>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close the file
        </button>
      </div>
      {file.isPending ? <p role="status">Loading {name}…</p> : null}
      <ErrorNotice error={file.error} label={`Could not open ${name}`} />
      {file.data !== undefined && text === undefined ? (
        <p>
          {name} is a binary file ({formatSize(file.data.bytes.length)}); it is not opened as text. Download it to open
          it with another program.
        </p>
      ) : null}
      {file.data !== undefined && text !== undefined && file.data.bytes.length > MAX_EDIT_BYTES ? (
        <p>
          {name} is {formatSize(file.data.bytes.length)}, too large to edit here; download it instead.
        </p>
      ) : null}
      {draft !== undefined && file.data !== undefined && file.data.bytes.length <= MAX_EDIT_BYTES ? (
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ overwrite: false });
          }}
        >
          <label className="field">
            <span>Contents of {name}</span>
            <textarea
              className="file-text"
              spellCheck={false}
              value={draft}
              rows={Math.min(30, Math.max(8, draft.split('\n').length + 1))}
              onChange={(event) => {
                setDraft(event.target.value);
                setSavedAt(undefined);
              }}
              onKeyDown={(event) => {
                // Ctrl+S / Cmd+S saves, as in an editor (the browser would save the page).
                if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
                  event.preventDefault();
                  if (dirty) save.mutate({ overwrite: false });
                }
              }}
            />
          </label>
          {conflict ? (
            <div role="alert" className="notice notice-error stack">
              <span>{save.error?.message}</span>
              <div className="row">
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    save.reset();
                    void file.refetch();
                  }}
                >
                  Reload (drop my changes)
                </button>
                <button type="button" className="btn btn-danger" onClick={() => save.mutate({ overwrite: true })}>
                  Overwrite with my version
                </button>
              </div>
            </div>
          ) : (
            <ErrorNotice error={save.error} label="Save failed" />
          )}
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={!dirty || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="btn" disabled={!dirty} onClick={() => setDraft(text)}>
              Discard changes
            </button>
            <span className="muted" role="status">
              {savedAt !== undefined && !dirty ? 'Saved.' : dirty ? 'Unsaved changes (Ctrl+S saves).' : ''}
            </span>
          </div>
        </form>
      ) : null}
    </section>
  );
}
