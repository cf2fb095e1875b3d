import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { PermissionModeJson, PermissionsJson } from '../../../../src/http/api-types/index.js';
import { getPermissions, updatePermissions } from '../../api/settings';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormField } from '../cron/FormField';
import { fieldErrors } from '../cron/field-errors';

const MODES: { value: PermissionModeJson; label: string }[] = [
  { value: 'default', label: 'default: ask rules ask, the rest follows each tool' },
  { value: 'plan', label: 'plan: read-only, nothing changes' },
  { value: 'accept-edits', label: 'accept-edits: file edits need no question' },
  { value: 'bypass', label: 'bypass: no questions at all (deny rules still apply)' },
];
const LISTS = ['allow', 'ask', 'deny'] as const;

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The permission mode and the allow/ask/deny rules (one per line), saved into boxagnts.json. */
export function PermissionsSection() {
  const queryClient = useQueryClient();
  const permissions = useQuery({ queryKey: ['permissions'], queryFn: ({ signal }) => getPermissions(signal) });
  const [mode, setMode] = useState<PermissionModeJson>('default');
  const [lists, setLists] = useState({ allow: '', ask: '', deny: '' });
  useEffect(() => {
    const value: PermissionsJson | undefined = permissions.data;
    if (value === undefined) return;
    setMode(value.mode);
    setLists({ allow: value.allow.join('\n'), ask: value.ask.join('\n'), deny: value.deny.join('\n') });
  }, [permissions.data]);
  const save = useMutation({
    mutationFn: () =>
      updatePermissions({
        mode,
        allow: linesOf(lists.allow),
        ask: linesOf(lists.ask),
        deny: linesOf(lists.deny),
      }),
    onSuccess: (value) => queryClient.setQueryData(['permissions'], value),
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section className="card stack" aria-labelledby="settings-permissions">
      <h2 id="settings-permissions">Permissions</h2>
      <ErrorNotice error={permissions.error} label="Could not read the permissions" />
      <form className="stack" onSubmit={submit}>
        <FormField label="Mode" error={errors.mode}>
          <select value={mode} onChange={(event) => setMode(event.target.value as PermissionModeJson)}>
            {MODES.map((entry) => (
              <option key={entry.value} value={entry.value}>
                {entry.label}
              </option>
            ))}
          </select>
        </FormField>
        <div className="settings-rules">
          {LISTS.map((list) => (
            <FormField
              key={list}
              label={`${list[0]!.toUpperCase()}${list.slice(1)} rules`}
              hint="One rule per line, e.g. bash(git *) or write_file."
              error={errors[list]}
            >
              <textarea
                rows={5}
                className="mono"
                spellCheck={false}
                value={lists[list]}
                onChange={(event) => setLists((old) => ({ ...old, [list]: event.target.value }))}
              />
            </FormField>
          ))}
        </div>
        <ErrorNotice error={save.error} label="Not saved" />
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={save.isPending || permissions.data === undefined}>
            {save.isPending ? 'Saving…' : 'Save permissions'}
          </button>
          {save.isSuccess ? (
            <span role="status" className="muted">
              Saved to boxagnts.json.
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
