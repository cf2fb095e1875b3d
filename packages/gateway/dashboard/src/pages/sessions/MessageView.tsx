import type { StoredMessageJson } from '../../../../src/http/api-types/index.js';
import { formatTime } from './format';
import { Markdown } from './Markdown';
import { ToolCard } from './ToolCard';
import { blocksOf, isToolResult, isToolUse, onlyToolResults, type ToolResult } from './transcript-blocks';

const ROLE_LABEL = { user: 'User', assistant: 'Assistant', system: 'System' } as const;

export interface MessageViewProps {
  entry: StoredMessageJson;
  results: Map<string, ToolResult>;
  subAgentSessions: Record<string, string>;
  onFork: (seq: number) => void;
}

/** One message of a transcript: text as Markdown, thinking collapsed, tool calls as cards with their results. */
export function MessageView({ entry, results, subAgentSessions, onFork }: MessageViewProps) {
  const role = entry.message.role;
  const toolResultsOnly = onlyToolResults(entry);
  const headingId = `message-${entry.seq}-heading`;
  return (
    <article
      id={`message-${entry.seq}`}
      className={`message message-${role}${toolResultsOnly ? ' message-results' : ''}`}
      aria-labelledby={headingId}
      tabIndex={-1}
    >
      <header className="message-head">
        <h2 id={headingId} className="message-role">
          {toolResultsOnly ? 'Tool results' : ROLE_LABEL[role]} <span className="muted">#{entry.seq}</span>
        </h2>
        <span className="muted message-meta">
          {[entry.model, formatTime(entry.createdAt), entry.compaction === undefined ? '' : 'compaction summary']
            .filter(Boolean)
            .join(' · ')}
        </span>
        <button
          type="button"
          className="btn btn-ghost message-fork"
          aria-label={`Fork here (at message ${entry.seq})`}
          onClick={() => onFork(entry.seq)}
        >
          Fork here
        </button>
      </header>
      {toolResultsOnly ? (
        <p className="muted">Shown with the calls above.</p>
      ) : (
        <div className="message-body">
          {blocksOf(entry).map((block, index) => {
            const key = `${entry.seq}-${index}`;
            if (block.type === 'text') return <Markdown key={key} text={String((block as { text: string }).text)} />;
            if (block.type === 'thinking') {
              return (
                <details key={key} className="thinking">
                  <summary>Thinking</summary>
                  <Markdown text={String((block as { thinking: string }).thinking)} />
                </details>
              );
            }
            if (block.type === 'redacted_thinking')
              return (
                <p key={key} className="muted">
                  Thinking (redacted by the provider)
                </p>
              );
            if (isToolUse(block)) {
              const result = results.get(block.id);
              const sub = subAgentSessions[block.id];
              return (
                <ToolCard
                  key={key}
                  call={block}
                  {...(result === undefined ? {} : { result })}
                  {...(sub === undefined ? {} : { subSession: sub })}
                />
              );
            }
            if (isToolResult(block)) return null;
            if (block.type === 'image')
              return (
                <p key={key} className="muted">
                  [image]
                </p>
              );
            if (block.type === 'document')
              return (
                <p key={key} className="muted">
                  [document{typeof block.title === 'string' ? `: ${block.title}` : ''}]
                </p>
              );
            return (
              <pre key={key} className="tool-pre">
                {JSON.stringify(block, null, 2)}
              </pre>
            );
          })}
        </div>
      )}
    </article>
  );
}
