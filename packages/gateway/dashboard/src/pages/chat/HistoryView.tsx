import type { StoredMessageJson } from '../../../../src/http/api-types/index.js';
import { Markdown } from '../sessions/Markdown';
import { ToolCard } from '../sessions/ToolCard';
import { blocksOf, isToolUse, onlyToolResults, resultsByCall } from '../sessions/transcript-blocks';
import { formatTokens } from './format-usage';

/** A token count from the stored usage: a number, or the workspace's `{ total }` object. */
function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value !== null && typeof value === 'object' && typeof (value as { total?: unknown }).total === 'number')
    return (value as { total: number }).total;
  return undefined;
}

/** Tokens of a stored assistant message (its `usage`), when the store kept them. */
function tokensOf(entry: StoredMessageJson): string | undefined {
  const usage = entry.usage as Record<string, unknown> | undefined;
  if (usage === undefined) return undefined;
  const input = countOf(usage.input);
  const output = countOf(usage.output);
  if (input === undefined && output === undefined) return undefined;
  return `${formatTokens(input ?? 0)} tokens in, ${formatTokens(output ?? 0)} out`;
}

/** The session's earlier messages (from `GET /sessions/:id`): text as Markdown, thinking collapsed, tool cards. */
export function HistoryView({
  messages,
  subAgentSessions,
}: {
  messages: StoredMessageJson[];
  subAgentSessions: Record<string, string>;
}) {
  const results = resultsByCall(messages);
  return (
    <>
      {messages
        .filter((entry) => entry.message.role !== 'system' && !onlyToolResults(entry))
        .map((entry) => {
          const user = entry.message.role === 'user';
          const tokens = user ? undefined : tokensOf(entry);
          return (
            <div key={entry.seq} className={`chat-message ${user ? 'chat-user' : 'chat-assistant'}`}>
              {user ? <h2 className="chat-role">You</h2> : null}
              {blocksOf(entry).map((block, index) => {
                const key = `${entry.seq}-${index}`;
                if (block.type === 'text') {
                  const text = String((block as { text: string }).text);
                  return user ? (
                    <p key={key} className="chat-user-text">
                      {text}
                    </p>
                  ) : (
                    <Markdown key={key} text={text} />
                  );
                }
                if (block.type === 'thinking') {
                  return (
                    <details key={key} className="chat-thinking">
                      <summary>Thinking</summary>
                      <Markdown text={String((block as { thinking: string }).thinking)} />
                    </details>
                  );
                }
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
                return null;
              })}
              {tokens === undefined ? null : <p className="muted chat-tokens">{tokens}</p>}
            </div>
          );
        })}
    </>
  );
}
