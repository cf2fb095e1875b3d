import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { OutputStyleJson } from '../../../../src/http/api-types/index.js';
import { deleteOutputStyle, listOutputStyles, saveOutputStyle } from '../../api/settings';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormField } from '../cron/FormField';
import { fieldErrors } from '../cron/field-errors';

interface Draft {
  isNew: boolean;
  name: string;
  description: string;
  prompt: string;
}

/**
 * Output styles (how answers are written): the built-ins and the workspace's `output-styles/*.md`.
 * A built-in is changed by saving a workspace copy of the same name, which then replaces it.
 */
export function OutputStylesSection() {
  const queryClient = useQueryClient();
  const styles = useQuery({ queryKey: ['output-styles'], queryFn: ({ signal }) => listOutputStyles(signal) });
  const [draft, setDraft] = useState<Draft>();
  const [deleting, setDeleting] = useState<OutputStyleJson>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['output-styles'] });
  const save = useMutation({
    mutationFn: (value: Draft) =>
      saveOutputStyle(value.name.trim(), { description: value.description, prompt: value.prompt }),
    onSuccess: async () => {
      setDraft(undefined);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (style: OutputStyleJson) => deleteOutputStyle(style.name),
    onSuccess: async () => {
      setDeleting(undefined);
      await refresh();
    },
  });
  const edit = (value: Draft) => {
    save.reset();
    setDraft(value);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft !== undefined) save.mutate(draft);
  };
  const errors = fieldErrors(save.error);
  return (
    <section className="card stack" aria-labelledby="settings-styles">
      <div className="row">
        <h2 id="settings-styles" className="grow">
          Output styles
        </h2>
        <button
          type="button"
          className="btn"
          onClick={() => edit({ isNew: true, name: '', description: '', prompt: '' })}
        >
          New style
        </button>
      </div>
      {styles.data === undefined ? null : (
        <p className="muted">
          Selected: <code>{styles.data.selected}</code> (<code>outputStyle</code> in boxagnts.json).
        </p>
      )}
      <ErrorNotice error={styles.error} label="Could not read the output styles" />
      {styles.isPending ? <p role="status">Loading the styles…</p> : null}
      {styles.data === undefined ? null : (
        <table className="table">
          <caption className="visually-hidden">Output styles</caption>
          <thead>
            <tr>
              <th scope="col">Style</th>
              <th scope="col">Description</th>
              <th scope="col">Source</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {styles.data.styles.map((style) => (
              <tr key={style.name}>
                <th scope="row">
                  {style.name} {style.selected ? <span className="badge badge-success">selected</span> : null}
                </th>
                <td>{style.description}</td>
                <td>{style.builtin ? 'built-in' : <code>{style.file}</code>}</td>
                <td>
                  <div className="row settings-actions">
                    <button
                      type="button"
                      className="btn"
                      aria-label={`${style.builtin ? 'Customize' : 'Edit'} style ${style.name}`}
                      onClick={() =>
                        edit({ isNew: false, name: style.name, description: style.description, prompt: style.prompt })
                      }
                    >
                      {style.builtin ? 'Customize' : 'Edit'}
                    </button>
                    {style.builtin ? null : (
                      <button
                        type="button"
                        className="btn btn-danger"
                        aria-label={`Delete style ${style.name}`}
                        onClick={() => {
                          remove.reset();
                          setDeleting(style);
                        }}
                      >
                        Delete
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Dialog
        open={draft !== undefined}
        title={draft?.isNew === true ? 'New output style' : `Style ${draft?.name ?? ''}`}
        onClose={() => setDraft(undefined)}
      >
        {draft === undefined ? null : (
          <form className="stack settings-style-form" onSubmit={submit} noValidate>
            <ErrorNotice error={save.error} label="Not saved" />
            {draft.isNew ? (
              <FormField label="Name" hint="Lowercase letters, digits, “_” or “-”." error={errors.name}>
                <input
                  value={draft.name}
                  autoComplete="off"
                  onChange={(event) => setDraft({ ...draft, name: event.target.value })}
                />
              </FormField>
            ) : (
              <p className="muted">Saved as output-styles/{draft.name}.md in the workspace.</p>
            )}
            <FormField label="Description" error={errors.description}>
              <input
                value={draft.description}
                onChange={(event) => setDraft({ ...draft, description: event.target.value })}
              />
            </FormField>
            <FormField label="Instruction" hint="Added to the system prompt." error={errors.prompt}>
              <textarea
                rows={8}
                value={draft.prompt}
                onChange={(event) => setDraft({ ...draft, prompt: event.target.value })}
              />
            </FormField>
            <div className="row">
              <button type="submit" className="btn btn-primary" disabled={save.isPending}>
                Save style
              </button>
              <button type="button" className="btn" onClick={() => setDraft(undefined)}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </Dialog>
      <Dialog open={deleting !== undefined} title="Delete the style?" onClose={() => setDeleting(undefined)}>
        <p>
          Delete <code>{deleting?.file}</code>? A built-in of the same name, if any, comes back.
        </p>
        <ErrorNotice error={remove.error} />
        <div className="row">
          <button
            type="button"
            className="btn btn-danger"
            disabled={remove.isPending}
            onClick={() => deleting !== undefined && remove.mutate(deleting)}
          >
            Delete style
          </button>
          <button type="button" className="btn" onClick={() => setDeleting(undefined)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </section>
  );
}
