import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { getAgentsMd, saveAgentsMd } from '../../api/settings';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatTime } from '../sessions/format';

/** The workspace's AGENTS.md (instructions every agent gets), edited in place. */
export function AgentsMdSection() {
  const queryClient = useQueryClient();
  const file = useQuery({ queryKey: ['agents-md'], queryFn: ({ signal }) => getAgentsMd(signal) });
  const [text, setText] = useState('');
  useEffect(() => {
    if (file.data !== undefined) setText(file.data.content);
  }, [file.data]);
  const save = useMutation({
    mutationFn: () => saveAgentsMd(text),
    onSuccess: (value) => queryClient.setQueryData(['agents-md'], value),
  });
  const changed = file.data !== undefined && text !== file.data.content;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section className="card stack" aria-labelledby="settings-agents-md">
      <h2 id="settings-agents-md">AGENTS.md</h2>
      <p className="muted">
        Instructions for every agent of this workspace, added to each system prompt.
        {file.data?.updatedAt === undefined ? '' : ` Last changed ${formatTime(file.data.updatedAt)}.`}
      </p>
      <ErrorNotice error={file.error} label="Could not read AGENTS.md" />
      <form className="stack" onSubmit={submit}>
        <label htmlFor="agents-md-text" className="visually-hidden">
          AGENTS.md content
        </label>
        <textarea
          id="agents-md-text"
          rows={12}
          className="mono"
          value={text}
          disabled={file.data === undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if ((event.ctrlKey || event.metaKey) && event.key === 's') {
              event.preventDefault();
              save.mutate();
            }
          }}
        />
        <ErrorNotice error={save.error} label="Not saved" />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !changed}>
            {save.isPending ? 'Saving…' : 'Save AGENTS.md'}
          </button>
          <span role="status" className="muted">
            {changed ? 'Unsaved changes (Ctrl+S saves).' : save.isSuccess ? 'Saved.' : ''}
          </span>
        </div>
      </form>
    </section>
  );
}
