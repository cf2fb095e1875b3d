import { Markdown } from '../sessions/Markdown';
import { formatCost, formatTokens } from './format-usage';
import { LiveToolCard } from './LiveToolCard';
import { type RunView, runTotals } from './run-view';

const STATUS_TEXT = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted',
} as const;
const STATUS_BADGE = {
  queued: 'badge-warning',
  running: 'badge-warning',
  completed: 'badge-success',
  failed: 'badge-danger',
  cancelled: 'badge-danger',
  interrupted: 'badge-danger',
} as const;

/** The run being watched: the prompt, streamed text and thinking, tool cards, and tokens and cost per call. */
export function RunTranscript({ view, subAgentSessions }: { view: RunView; subAgentSessions: Record<string, string> }) {
  const totals = runTotals(view);
  return (
    <article className="chat-run" aria-label="Current run">
      {view.items.map((item, index) => {
        const key = `${view.runId}-${index}`;
        if (item.kind === 'user') {
          return (
            <div key={key} className="chat-message chat-user">
              <h2 className="chat-role">You</h2>
              <p className="chat-user-text">{item.text}</p>
            </div>
          );
        }
        if (item.kind === 'text') {
          return (
            <div key={key} className="chat-message chat-assistant">
              <Markdown text={item.text} />
            </div>
          );
        }
        if (item.kind === 'thinking') {
          return (
            <details key={key} className="chat-thinking">
              <summary>Thinking</summary>
              <Markdown text={item.text} />
            </details>
          );
        }
        if (item.kind === 'status') {
          return (
            <p key={key} className="muted chat-status-line">
              {item.text}
            </p>
          );
        }
        const sub = subAgentSessions[item.toolCallId];
        return <LiveToolCard key={key} item={item} {...(sub === undefined ? {} : { subSession: sub })} />;
      })}
      <footer className="chat-run-foot">
        <span role="status" aria-live="polite" className={`badge ${STATUS_BADGE[view.status]}`}>
          {STATUS_TEXT[view.status]}
          {view.reason !== undefined && view.status !== 'completed' ? ` (${view.reason})` : ''}
        </span>
        {view.calls.length === 0 ? null : (
          <details className="chat-usage">
            <summary>
              {formatTokens(totals.inputTokens)} tokens in, {formatTokens(totals.outputTokens)} out,{' '}
              {formatCost(totals.costUsd)}
            </summary>
            <table className="table">
              <caption className="visually-hidden">Tokens and cost per model call</caption>
              <thead>
                <tr>
                  <th scope="col">Call</th>
                  <th scope="col">Model</th>
                  <th scope="col" className="num">
                    Input tokens
                  </th>
                  <th scope="col" className="num">
                    Output tokens
                  </th>
                  <th scope="col" className="num">
                    Cost
                  </th>
                </tr>
              </thead>
              <tbody>
                {view.calls.map((call) => (
                  <tr key={call.key}>
                    <td>{call.turn}</td>
                    <td>{call.model}</td>
                    <td className="num">{formatTokens(call.inputTokens)}</td>
                    <td className="num">{formatTokens(call.outputTokens)}</td>
                    <td className="num">{formatCost(call.costUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        )}
      </footer>
      {view.error === undefined ? null : (
        <div role="alert" className="notice notice-error">
          {view.error}
        </div>
      )}
    </article>
  );
}
