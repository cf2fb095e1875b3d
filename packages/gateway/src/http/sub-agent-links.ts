import type { SessionRecord, StoredMessage } from '@boxagnts/workspace';

/** The numeric counter at the end of a sub-agent session id (`parent/agent-1-3` -> 3), for ordering. */
function counterOf(id: string): number {
  const match = /-(\d+)$/.exec(id);
  return match === null ? Number.POSITIVE_INFINITY : Number(match[1]);
}

/**
 * Which `agent` tool call started which sub-agent session. The store links a sub-agent's session to
 * its parent session (id `<parent>/agent-<depth>-<n>`, titled with the call's `description`) but not to
 * the call itself, so calls are matched to sessions in order: each `agent` call takes the first
 * unclaimed sub-agent session with its description as title, in the order the runner numbered them.
 */
export function linkSubAgentSessions(
  messages: readonly StoredMessage[],
  children: readonly SessionRecord[],
): Record<string, string> {
  const unclaimed = children
    .filter((child) => child.kind === 'sub-agent')
    .sort((a, b) => a.createdAt - b.createdAt || counterOf(a.id) - counterOf(b.id));
  const links: Record<string, string> = {};
  for (const entry of messages) {
    const content = entry.message.content;
    if (entry.message.role !== 'assistant' || typeof content === 'string') continue;
    for (const block of content) {
      if (block.type !== 'tool_use' || block.name !== 'agent') continue;
      const description = typeof block.input.description === 'string' ? block.input.description : undefined;
      const index = unclaimed.findIndex((child) => child.title === description);
      if (index === -1) continue;
      const [child] = unclaimed.splice(index, 1);
      if (child !== undefined) links[block.id] = child.id;
    }
  }
  return links;
}
