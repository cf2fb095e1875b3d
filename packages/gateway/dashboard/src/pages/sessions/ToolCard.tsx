import { Link } from 'react-router';
import { resultText, type ToolResult, type ToolUse } from './transcript-blocks';

/** Lines past which a tool's input or result starts collapsed. */
const LONG_LINES = 12;
const LONG_CHARS = 1200;

function isLong(text: string): boolean {
  return text.length > LONG_CHARS || text.split('\n').length > LONG_LINES;
}

function Collapsible({ label, text }: { label: string; text: string }) {
  if (!isLong(text)) {
    return (
      <div className="tool-part">
        <div className="tool-part-label">{label}</div>
        <pre className="tool-pre">{text}</pre>
      </div>
    );
  }
  return (
    <details className="tool-part">
      <summary>
        {label} ({text.split('\n').length} lines)
      </summary>
      <pre className="tool-pre">{text}</pre>
    </details>
  );
}

/** One tool call with its input and its result; an `agent` call links to the sub-agent's own transcript. */
export function ToolCard({ call, result, subSession }: { call: ToolUse; result?: ToolResult; subSession?: string }) {
  const input = JSON.stringify(call.input, null, 2);
  const status = result === undefined ? 'no result' : result.isError === true ? 'error' : 'done';
  return (
    <section className="tool-card" aria-label={`Tool call ${call.name}`}>
      <div className="tool-head">
        <span className="tool-name">{call.name}</span>
        <span
          className={`badge ${status === 'error' ? 'badge-danger' : status === 'done' ? 'badge-success' : 'badge-warning'}`}
        >
          {status}
        </span>
        {subSession === undefined ? null : (
          <Link className="tool-link" to={`/sessions/${encodeURIComponent(subSession)}`}>
            Open the sub-agent transcript
          </Link>
        )}
      </div>
      <Collapsible label="Input" text={input} />
      {result === undefined ? null : <Collapsible label="Result" text={resultText(result)} />}
    </section>
  );
}
