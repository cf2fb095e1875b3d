import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { UsageGroupJson } from '../../../../src/http/api-types/index.js';
import { usageReport } from '../../api/usage';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCount, formatUsd, totalTokens } from './usage-format';

export type UsageMetric = 'cost' | 'tokens';

const TITLES: Record<UsageGroupJson, string> = {
  day: 'By day',
  model: 'By model',
  provider: 'By provider',
  agent: 'By agent',
  session: 'By session',
};
const KEY_HEADERS: Record<UsageGroupJson, string> = {
  day: 'Day (UTC)',
  model: 'Model',
  provider: 'Provider',
  agent: 'Agent',
  session: 'Session',
};

/**
 * One grouping of the usage report: a bar chart (cost, or input and output tokens) and beside it the
 * table with every number, which is what screen readers and keyboard users read (the chart is hidden
 * from them, as it says nothing the table does not).
 */
export function UsageSection({
  groupBy,
  range,
  metric,
}: {
  groupBy: UsageGroupJson;
  range: { since?: number; until?: number };
  metric: UsageMetric;
}) {
  const report = useQuery({
    queryKey: ['usage', groupBy, range.since, range.until],
    queryFn: ({ signal }) => usageReport(groupBy, range, signal),
  });
  const rows = report.data?.rows ?? [];
  // Days read left to right in time; the other groupings put the largest first.
  const sorted =
    groupBy === 'day'
      ? [...rows].sort((a, b) => a.key.localeCompare(b.key))
      : [...rows].sort((a, b) => b.costUsd - a.costUsd || totalTokens(b) - totalTokens(a));
  const titleId = `usage-${groupBy}-title`;
  return (
    <section className="card usage-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{TITLES[groupBy]}</h2>
      <ErrorNotice error={report.error} label="Could not read the usage" />
      {report.isPending ? <p role="status">Loading…</p> : null}
      {report.data !== undefined && rows.length === 0 ? <p className="muted">No model calls in this range.</p> : null}
      {rows.length === 0 ? null : (
        <div className="usage-body">
          <div className="usage-chart" aria-hidden="true" data-testid={`usage-chart-${groupBy}`}>
            <ResponsiveContainer width="100%" height={240}>
              <BarChart data={sorted} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                <XAxis dataKey="key" tick={{ fill: 'var(--fg-muted)', fontSize: 12 }} interval={0} />
                <YAxis
                  tick={{ fill: 'var(--fg-muted)', fontSize: 12 }}
                  tickFormatter={(value: number) => (metric === 'cost' ? formatUsd(value) : formatCount(value))}
                  width={72}
                />
                <Tooltip
                  contentStyle={{
                    background: 'var(--bg-raised)',
                    border: '1px solid var(--border)',
                    color: 'var(--fg)',
                  }}
                  formatter={(value) => (metric === 'cost' ? formatUsd(Number(value)) : formatCount(Number(value)))}
                />
                {metric === 'cost' ? (
                  <Bar dataKey="costUsd" name="Cost (USD)" fill="var(--accent)" isAnimationActive={false} />
                ) : (
                  <>
                    <Legend />
                    <Bar
                      dataKey="inputTokens"
                      name="Input tokens"
                      stackId="tokens"
                      fill="var(--accent)"
                      isAnimationActive={false}
                    />
                    <Bar
                      dataKey="outputTokens"
                      name="Output tokens"
                      stackId="tokens"
                      fill="var(--success)"
                      isAnimationActive={false}
                    />
                  </>
                )}
              </BarChart>
            </ResponsiveContainer>
          </div>
          <table className="table usage-table">
            <caption className="visually-hidden">Usage {TITLES[groupBy].toLowerCase()}</caption>
            <thead>
              <tr>
                <th scope="col">{KEY_HEADERS[groupBy]}</th>
                <th scope="col" className="num">
                  Calls
                </th>
                <th scope="col" className="num">
                  Input tokens
                </th>
                <th scope="col" className="num">
                  Output tokens
                </th>
                <th scope="col" className="num">
                  Cache read
                </th>
                <th scope="col" className="num">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((row) => (
                <tr key={row.key}>
                  <th scope="row">{row.key}</th>
                  <td className="num">{formatCount(row.calls)}</td>
                  <td className="num">{formatCount(row.inputTokens)}</td>
                  <td className="num">{formatCount(row.outputTokens)}</td>
                  <td className="num">{formatCount(row.cacheReadTokens)}</td>
                  <td className="num">{formatUsd(row.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
