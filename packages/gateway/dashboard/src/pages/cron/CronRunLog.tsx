import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { CronJobJson, CronRunEntryJson } from '../../../../src/http/api-types/index.js';
import { listCronRuns } from '../../api/cron';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatTime } from '../sessions/format';

const STATUS_BADGE: Record<CronRunEntryJson['status'], string> = {
  success: 'badge badge-success',
  failed: 'badge badge-danger',
  skipped: 'badge badge-warning',
  queued: 'badge',
  running: 'badge',
};

export function formatCost(costUsd: number | undefined): string {
  if (costUsd === undefined) return '';
  return `$${costUsd < 0.01 && costUsd > 0 ? costUsd.toFixed(4) : costUsd.toFixed(2)}`;
}

/** A job's run log, newest first: when, why it ran, outcome, cost and the session it wrote. */
export function CronRunLog({ job }: { job: CronJobJson }) {
  const runs = useQuery({
    queryKey: ['cron-runs', job.id],
    queryFn: ({ signal }) => listCronRuns(job.id, signal),
    // While a run is queued or running, its row changes: look again every 2 s until it settles.
    refetchInterval: (query) =>
      query.state.data?.runs.some((run) => run.status === 'queued' || run.status === 'running') === true
        ? 2_000
        : false,
  });
  return (
    <section className="card stack" aria-labelledby="cron-log-title">
      <h2 id="cron-log-title">Run log of {job.name}</h2>
      <ErrorNotice error={runs.error} label="Could not read the run log" />
      {runs.isPending ? <p role="status">Loading the run log…</p> : null}
      {runs.data?.runs.length === 0 ? <p className="muted">No runs yet. Use “Run now” to try the job.</p> : null}
      {runs.data === undefined || runs.data.runs.length === 0 ? null : (
        <table className="table">
          <caption className="visually-hidden">Runs of {job.name}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Scheduled for</th>
              <th scope="col">Trigger</th>
              <th scope="col">Status</th>
              <th scope="col">Outcome</th>
              <th scope="col" className="num">
                Cost
              </th>
              <th scope="col">Session</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.runs.map((run) => (
              <tr key={run.id}>
                <td>{formatTime(run.scheduledFor)}</td>
                <td>{run.trigger === 'manual' ? 'run now' : run.trigger}</td>
                <td>
                  <span className={STATUS_BADGE[run.status]}>{run.status}</span>
                </td>
                <td>
                  {run.outcome ?? ''}
                  {run.error === undefined ? null : <div className="muted">{run.error}</div>}
                </td>
                <td className="num">{formatCost(run.costUsd)}</td>
                <td>
                  {run.sessionId === undefined ? (
                    ''
                  ) : (
                    <Link to={`/sessions/${encodeURIComponent(run.sessionId)}`}>Open session</Link>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
