import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import type { CronJobInputJson, CronJobJson } from '../../../../src/http/api-types/index.js';
import { listAgents } from '../../api/catalog';
import { createCronJob, previewCronRuns, updateCronJob } from '../../api/cron';
import { ErrorNotice } from '../../components/ErrorNotice';
import { describeCron } from './describe-cron';
import { FormField } from './FormField';
import { fieldErrors } from './field-errors';
import { useDebounced } from './use-debounced';

/** Every IANA zone this browser knows, UTC first (the gateway's default). */
function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((zone) => zone !== 'UTC')];
}

/** An instant as the wall clock of `timeZone` shows it (the preview is in the job's zone, not the browser's). */
export function formatInZone(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat(undefined, {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(epochMs);
}

interface Draft {
  name: string;
  cron: string;
  timezone: string;
  prompt: string;
  agent: string;
  model: string;
  timeoutSeconds: string;
  budgetUsd: string;
  overlap: CronJobInputJson['overlap'];
  catchUp: CronJobInputJson['catchUp'];
  enabled: boolean;
}

function draftOf(job: CronJobJson | undefined): Draft {
  return {
    name: job?.name ?? '',
    cron: job?.cron ?? '0 9 * * 1-5',
    timezone: job?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC',
    prompt: job?.prompt ?? '',
    agent: job?.agent ?? '',
    model: job?.model ?? '',
    timeoutSeconds: String(Math.round((job?.timeoutMs ?? 180_000) / 1000)),
    budgetUsd: job?.budgetUsd === undefined ? '' : String(job.budgetUsd),
    overlap: job?.overlap ?? 'skip',
    catchUp: job?.catchUp ?? 'skip',
    enabled: job?.enabled ?? true,
  };
}

/** A local check before the gateway's: numbers that are not numbers never leave the form. */
function localErrors(draft: Draft): Record<string, string> {
  const errors: Record<string, string> = {};
  const timeout = Number(draft.timeoutSeconds);
  if (!Number.isFinite(timeout) || timeout <= 0) errors.timeoutMs = 'Give the timeout in seconds, more than 0.';
  if (draft.budgetUsd.trim() !== '' && !(Number(draft.budgetUsd) > 0))
    errors.budgetUsd = 'Give a budget in USD above 0, or leave it empty for none.';
  return errors;
}

function bodyOf(draft: Draft, editing: boolean): CronJobInputJson {
  const clear = editing ? null : undefined;
  return {
    name: draft.name.trim(),
    cron: draft.cron.trim(),
    timezone: draft.timezone,
    prompt: draft.prompt,
    timeoutMs: Math.round(Number(draft.timeoutSeconds) * 1000),
    overlap: draft.overlap,
    catchUp: draft.catchUp,
    ...(draft.agent === '' ? (clear === null ? { agent: null } : {}) : { agent: draft.agent }),
    ...(draft.model.trim() === '' ? (clear === null ? { model: null } : {}) : { model: draft.model.trim() }),
    ...(draft.budgetUsd.trim() === ''
      ? clear === null
        ? { budgetUsd: null }
        : {}
      : { budgetUsd: Number(draft.budgetUsd) }),
    ...(editing ? {} : { enabled: draft.enabled }),
  };
}

/** Create or edit a cron job, with the next runs previewed live in the job's own time zone. */
export function CronJobForm({
  job,
  onSaved,
  onCancel,
}: {
  job?: CronJobJson;
  onSaved: (job: CronJobJson) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(() => draftOf(job));
  const [checked, setChecked] = useState<Record<string, string>>({});
  const zones = useMemo(timeZones, []);
  const agents = useQuery({ queryKey: ['agents'], queryFn: ({ signal }) => listAgents(signal) });
  const set = <Key extends keyof Draft>(key: Key, value: Draft[Key]) => setDraft((old) => ({ ...old, [key]: value }));

  const schedule = useDebounced({ cron: draft.cron.trim(), timezone: draft.timezone }, 300);
  const preview = useQuery({
    queryKey: ['cron-preview', schedule.cron, schedule.timezone],
    queryFn: ({ signal }) => previewCronRuns(schedule.cron, schedule.timezone, 5, signal),
    enabled: schedule.cron !== '',
    retry: false,
  });
  const save = useMutation({
    mutationFn: (body: CronJobInputJson) => (job === undefined ? createCronJob(body) : updateCronJob(job.id, body)),
    onSuccess: onSaved,
  });
  const previewErrors = fieldErrors(preview.error);
  const errors = { ...previewErrors, ...fieldErrors(save.error), ...checked };
  const unplacedPreviewError =
    preview.error !== null && previewErrors.cron === undefined && previewErrors.timezone === undefined;
  const words = describeCron(draft.cron);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = localErrors(draft);
    setChecked(problems);
    if (Object.keys(problems).length === 0) save.mutate(bodyOf(draft, job !== undefined));
  };
  return (
    <form className="cron-form stack" onSubmit={submit} noValidate>
      <ErrorNotice
        error={save.error}
        label={job === undefined ? 'Could not create the job' : 'Could not save the job'}
      />
      <div className="form-grid">
        <FormField label="Name" error={errors.name}>
          <input value={draft.name} onChange={(event) => set('name', event.target.value)} required autoComplete="off" />
        </FormField>
        <FormField label="Time zone" error={errors.timezone}>
          <select value={draft.timezone} onChange={(event) => set('timezone', event.target.value)}>
            {zones.includes(draft.timezone) ? null : <option value={draft.timezone}>{draft.timezone}</option>}
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </FormField>
        <FormField
          label="Schedule (cron expression)"
          hint={words ?? 'minute hour day-of-month month day-of-week (6 fields: seconds first)'}
          error={errors.cron}
        >
          <input
            value={draft.cron}
            onChange={(event) => set('cron', event.target.value)}
            spellCheck={false}
            autoComplete="off"
            className="mono"
          />
        </FormField>
        <section className="cron-preview" aria-labelledby="cron-preview-title" aria-live="polite">
          <h3 id="cron-preview-title">Next runs ({draft.timezone})</h3>
          {preview.isFetching && preview.data === undefined ? <p className="muted">Computing…</p> : null}
          {unplacedPreviewError ? <ErrorNotice error={preview.error} /> : null}
          {preview.error === null && preview.data !== undefined ? (
            preview.data.runs.length === 0 ? (
              <p className="muted">This schedule never fires.</p>
            ) : (
              <ol aria-label="Next runs">
                {preview.data.runs.map((run) => (
                  <li key={run.at}>
                    <time dateTime={run.iso}>{formatInZone(run.at, schedule.timezone)}</time>
                  </li>
                ))}
              </ol>
            )
          ) : null}
          {preview.error !== null && !unplacedPreviewError ? (
            <p className="muted">Fix the schedule to see its next runs.</p>
          ) : null}
        </section>
      </div>
      <FormField label="Prompt" hint="The message each run starts with." error={errors.prompt}>
        <textarea rows={4} value={draft.prompt} onChange={(event) => set('prompt', event.target.value)} />
      </FormField>
      <div className="form-grid">
        <FormField label="Agent" error={errors.agent}>
          <select value={draft.agent} onChange={(event) => set('agent', event.target.value)}>
            <option value="">Default agent{agents.data === undefined ? '' : ` (${agents.data.defaultAgent})`}</option>
            {(agents.data?.agents ?? []).map((agent) => (
              <option key={agent.name} value={agent.name}>
                {agent.name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Model" hint="provider/model; empty: the agent's model." error={errors.model}>
          <input
            value={draft.model}
            onChange={(event) => set('model', event.target.value)}
            placeholder="anthropic/claude-sonnet-4-6"
            autoComplete="off"
          />
        </FormField>
        <FormField label="Timeout (seconds)" error={errors.timeoutMs}>
          <input
            type="number"
            min={1}
            value={draft.timeoutSeconds}
            onChange={(event) => set('timeoutSeconds', event.target.value)}
          />
        </FormField>
        <FormField label="Budget per run (USD)" hint="Empty: no budget." error={errors.budgetUsd}>
          <input
            type="number"
            min={0}
            step="0.01"
            value={draft.budgetUsd}
            onChange={(event) => set('budgetUsd', event.target.value)}
          />
        </FormField>
        <FormField label="When the last run still runs" error={errors.overlap}>
          <select value={draft.overlap} onChange={(event) => set('overlap', event.target.value as Draft['overlap'])}>
            <option value="skip">Skip this run</option>
            <option value="queue">Queue it after the last one</option>
            <option value="allow">Run both at once</option>
          </select>
        </FormField>
        <FormField label="Runs missed while the gateway was down" error={errors.catchUp}>
          <select value={draft.catchUp} onChange={(event) => set('catchUp', event.target.value as Draft['catchUp'])}>
            <option value="skip">Skip them</option>
            <option value="run-once">Run once to catch up</option>
          </select>
        </FormField>
      </div>
      {job === undefined ? (
        <label className="row checkbox">
          <input type="checkbox" checked={draft.enabled} onChange={(event) => set('enabled', event.target.checked)} />
          Enabled (runs on schedule)
        </label>
      ) : null}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : job === undefined ? 'Create job' : 'Save job'}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
