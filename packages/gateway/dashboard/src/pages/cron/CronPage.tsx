import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CronJobJson } from '../../../../src/http/api-types/index.js';
import { deleteCronJob, listCronJobs, runCronJobNow, setCronJobEnabled } from '../../api/cron';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/PageHeader';
import { CronJobForm, formatInZone } from './CronJobForm';
import { CronRunLog } from './CronRunLog';
import { describeCron } from './describe-cron';
import './cron.css';

type Editing = { kind: 'new' } | { kind: 'edit'; job: CronJobJson } | undefined;

/** Cron jobs: the list with their next runs, create and edit with a preview, enable, run now, delete, run logs. */
export function CronPage() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>();
  const [deleting, setDeleting] = useState<CronJobJson>();
  const [selectedId, setSelectedId] = useState<string>();
  const jobs = useQuery({ queryKey: ['cron-jobs'], queryFn: ({ signal }) => listCronJobs(signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['cron-jobs'] });

  const toggle = useMutation({
    mutationFn: (job: CronJobJson) => setCronJobEnabled(job.id, !job.enabled),
    onSuccess: refresh,
  });
  const runNow = useMutation({
    mutationFn: (job: CronJobJson) => runCronJobNow(job.id),
    onSuccess: async (_, job) => {
      setSelectedId(job.id);
      await queryClient.invalidateQueries({ queryKey: ['cron-runs', job.id] });
    },
  });
  const remove = useMutation({
    mutationFn: (job: CronJobJson) => deleteCronJob(job.id),
    onSuccess: async (_, job) => {
      setDeleting(undefined);
      if (selectedId === job.id) setSelectedId(undefined);
      await refresh();
    },
  });

  const list = jobs.data?.jobs ?? [];
  const selected = list.find((job) => job.id === selectedId);
  return (
    <>
      <PageHeader title="Cron">
        <button type="button" className="btn btn-primary" onClick={() => setEditing({ kind: 'new' })}>
          New job
        </button>
      </PageHeader>
      <ErrorNotice error={jobs.error} label="Could not list the jobs" />
      <ErrorNotice error={toggle.error} label="Could not change the job" />
      <ErrorNotice error={runNow.error} label="Could not start the run" />
      {runNow.isSuccess ? (
        <p role="status" className="muted">
          Run of {runNow.variables.name} started.
        </p>
      ) : null}
      {jobs.isPending ? <p role="status">Loading the jobs…</p> : null}
      {jobs.data !== undefined && list.length === 0 ? (
        <div className="card">
          <p>No cron jobs yet. A job runs an agent with a prompt on a schedule, in the time zone you pick.</p>
          <button type="button" className="btn btn-primary" onClick={() => setEditing({ kind: 'new' })}>
            Create the first job
          </button>
        </div>
      ) : null}
      {list.length === 0 ? null : (
        <table className="table cron-table">
          <caption className="visually-hidden">Cron jobs</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Schedule</th>
              <th scope="col">Time zone</th>
              <th scope="col">Next run</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((job) => (
              <tr key={job.id} aria-current={job.id === selectedId ? 'true' : undefined}>
                <th scope="row">{job.name}</th>
                <td>
                  <code>{job.cron}</code>
                  {describeCron(job.cron) === undefined ? null : <div className="muted">{describeCron(job.cron)}</div>}
                </td>
                <td>{job.timezone}</td>
                <td>
                  {job.enabled && job.nextRunAt !== undefined ? (
                    <time dateTime={new Date(job.nextRunAt).toISOString()}>
                      {formatInZone(job.nextRunAt, job.timezone)}
                    </time>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td>
                  <span className={job.enabled ? 'badge badge-success' : 'badge'}>
                    {job.enabled ? 'enabled' : 'disabled'}
                  </span>
                </td>
                <td>
                  <div className="row cron-actions">
                    <button
                      type="button"
                      className="btn"
                      aria-label={`Run log of ${job.name}`}
                      aria-pressed={job.id === selectedId}
                      onClick={() => setSelectedId(job.id === selectedId ? undefined : job.id)}
                    >
                      Run log
                    </button>
                    <button
                      type="button"
                      className="btn"
                      aria-label={`Run now: ${job.name}`}
                      disabled={runNow.isPending}
                      onClick={() => runNow.mutate(job)}
                    >
                      Run now
                    </button>
                    <button
                      type="button"
                      className="btn"
                      aria-label={`${job.enabled ? 'Disable' : 'Enable'} ${job.name}`}
                      disabled={toggle.isPending}
                      onClick={() => toggle.mutate(job)}
                    >
                      {job.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button
                      type="button"
                      className="btn"
                      aria-label={`Edit ${job.name}`}
                      onClick={() => setEditing({ kind: 'edit', job })}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-danger"
                      aria-label={`Delete ${job.name}`}
                      onClick={() => {
                        remove.reset();
                        setDeleting(job);
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
      {selected === undefined ? null : <CronRunLog job={selected} />}
      <Dialog
        open={editing !== undefined}
        title={editing?.kind === 'edit' ? `Edit ${editing.job.name}` : 'New cron job'}
        onClose={() => setEditing(undefined)}
      >
        {editing === undefined ? null : (
          <CronJobForm
            key={editing.kind === 'edit' ? editing.job.id : 'new'}
            {...(editing.kind === 'edit' ? { job: editing.job } : {})}
            onCancel={() => setEditing(undefined)}
            onSaved={async (job) => {
              setEditing(undefined);
              setSelectedId(job.id);
              await refresh();
            }}
          />
        )}
      </Dialog>
      <Dialog open={deleting !== undefined} title="Delete the job?" onClose={() => setDeleting(undefined)}>
        <p>
          Delete <strong>{deleting?.name}</strong> and its run log? Its sessions stay.
        </p>
        <ErrorNotice error={remove.error} />
        <div className="row">
          <button
            type="button"
            className="btn btn-danger"
            disabled={remove.isPending}
            onClick={() => deleting !== undefined && remove.mutate(deleting)}
          >
            Delete job
          </button>
          <button type="button" className="btn" onClick={() => setDeleting(undefined)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </>
  );
}
