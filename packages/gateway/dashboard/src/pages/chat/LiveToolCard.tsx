import { Link } from 'react-router';
import type { ToolItem } from './run-view';

const LONG_LINES = 12;
const LONG_CHARS = 1200;

function isLong(text: string): boolean {
  return text.length > LONG_CHARS || text.split('\n').length > LONG_LINES;
}

/** A tool's input or result: shown in full when short, behind a disclosure when long. */
function Part({ label, text }: { label: string; text: string }) {
  if (!isLong(text)) {
    return (
      <div className="chat-tool-part">
        <div className="chat-tool-label">{label}</div>
        <pre className="chat-pre">{text}</pre>
      </div>
    );
  }
  return (
    <details className="chat-tool-part">
      <summary>
        {label} ({text.split('\n').length} lines, {text.length} characters)
      </summary>
      <pre className="chat-pre">{text}</pre>
    </details>
  );
}

const STATE_LABEL = { running: 'running', done: 'done', error: 'error' } as const;
const STATE_BADGE = { running: 'badge-warning', done: 'badge-success', error: 'badge-danger' } as const;

/** One tool call of the live run: name, state, input and (once it ends) its result; errors marked. */
export function LiveToolCard({ item, subSession }: { item: ToolItem; subSession?: string }) {
  const input = JSON.stringify(item.input ?? {}, null, 2);
  return (
    <section
      className={`chat-tool${item.state === 'error' ? ' chat-tool-error' : ''}`}
      aria-label={`Tool call ${item.name} (${STATE_LABEL[item.state]})`}
    >
      <div className="chat-tool-head">
        <span className="chat-tool-name">{item.name}</span>
        <span className={`badge ${STATE_BADGE[item.state]}`}>{STATE_LABEL[item.state]}</span>
        {item.durationMs === undefined ? null : <span className="muted">{Math.round(item.durationMs)} ms</span>}
        {item.state === 'running' && item.subAgentEvents > 0 ? (
          <span className="muted">sub-agent working ({item.subAgentEvents} events)</span>
        ) : null}
        {subSession === undefined ? null : (
          <Link to={`/sessions/${encodeURIComponent(subSession)}`}>Open the sub-agent transcript</Link>
        )}
      </div>
      <Part label="Input" text={input} />
      {item.result === undefined ? null : (
        <Part label={item.state === 'error' ? 'Error' : 'Result'} text={item.result} />
      )}
    </section>
  );
}
