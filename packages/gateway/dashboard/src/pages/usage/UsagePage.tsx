import { useState } from 'react';
import type { UsageGroupJson } from '../../../../src/http/api-types/index.js';
import { PageHeader } from '../../components/PageHeader';
import { type UsageMetric, UsageSection } from './UsageSection';
import { dateInputValue, rangeOf } from './usage-format';
import './usage.css';

const GROUPS: readonly UsageGroupJson[] = ['day', 'model', 'provider', 'agent', 'session'];
const DAY_MS = 24 * 60 * 60 * 1000;

/** Cost and tokens of every model call, by day, model, provider, agent and session, over a date range. */
export function UsagePage() {
  const [from, setFrom] = useState(() => dateInputValue(Date.now() - 29 * DAY_MS));
  const [to, setTo] = useState(() => dateInputValue(Date.now()));
  const [metric, setMetric] = useState<UsageMetric>('cost');
  const range = rangeOf(from, to);
  const backwards = range.since !== undefined && range.until !== undefined && range.since >= range.until;
  return (
    <>
      <PageHeader title="Usage" />
      <form className="row usage-controls" onSubmit={(event) => event.preventDefault()} aria-label="Usage range">
        <div className="field">
          <label htmlFor="usage-from">From</label>
          <input id="usage-from" type="date" value={from} max={to} onChange={(event) => setFrom(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="usage-to">To</label>
          <input id="usage-to" type="date" value={to} min={from} onChange={(event) => setTo(event.target.value)} />
        </div>
        <fieldset className="usage-metric">
          <legend>Chart</legend>
          <label>
            <input type="radio" name="metric" checked={metric === 'cost'} onChange={() => setMetric('cost')} /> Cost
          </label>
          <label>
            <input type="radio" name="metric" checked={metric === 'tokens'} onChange={() => setMetric('tokens')} />{' '}
            Tokens
          </label>
        </fieldset>
        <button
          type="button"
          className="btn"
          onClick={() => {
            setFrom('');
            setTo('');
          }}
        >
          All time
        </button>
      </form>
      {backwards ? (
        <div role="alert" className="notice notice-error">
          “From” is after “To”: pick a start before the end.
        </div>
      ) : (
        <div className="stack">
          {GROUPS.map((groupBy) => (
            <UsageSection key={groupBy} groupBy={groupBy} range={range} metric={metric} />
          ))}
        </div>
      )}
    </>
  );
}
