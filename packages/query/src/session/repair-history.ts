import type { AssistantMessage, Message, ToolResultBlock, UserContentBlock } from '@boxagnts/api';

/** The result text a tool call gets when its run was interrupted before it answered. */
export const INTERRUPTED_TOOL_RESULT =
  'The run was interrupted before this tool call finished, so it has no result. It was not run again: ' +
  'check its effects (e.g. read the file) before repeating it.';

/** What {@link repairHistory} changed. */
export interface HistoryRepair {
  messages: Message[];
  /** Ids of tool calls that got an "interrupted" error result. */
  repairedToolCallIds: string[];
}

function toolUseIds(message: AssistantMessage): string[] {
  const ids: string[] = [];
  for (const block of message.content) if (block.type === 'tool_use') ids.push(block.id);
  return ids;
}

function answeredIds(message: Message | undefined): Set<string> {
  const ids = new Set<string>();
  if (message === undefined || message.role !== 'user' || typeof message.content === 'string') return ids;
  for (const block of message.content) if (block.type === 'tool_result') ids.add(block.toolUseId);
  return ids;
}

function interrupted(id: string): ToolResultBlock {
  return { type: 'tool_result', toolUseId: id, content: INTERRUPTED_TOOL_RESULT, isError: true };
}

/**
 * Makes an interrupted history valid to send again: every `tool_use` gets exactly one
 * `tool_result` in the user message right after it. A call without one gets an error result
 * saying the run was interrupted (side-effecting tools are never re-run). Results are added to the
 * following user message when there is one, or as a new user message. Pure: returns new arrays.
 *
 * @example
 * const { messages } = repairHistory((await store.load(id)).map((entry) => entry.message));
 */
export function repairHistory(history: readonly Message[]): HistoryRepair {
  const messages: Message[] = [];
  const repairedToolCallIds: string[] = [];
  for (let index = 0; index < history.length; index++) {
    const message = history[index] as Message;
    messages.push(message);
    if (message.role !== 'assistant') continue;
    const ids = toolUseIds(message);
    if (ids.length === 0) continue;
    const next = history[index + 1];
    const answered = answeredIds(next);
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length === 0) continue;
    repairedToolCallIds.push(...missing);
    const added = missing.map(interrupted);
    if (next !== undefined && next.role === 'user') {
      const rest: UserContentBlock[] =
        typeof next.content === 'string' ? [{ type: 'text', text: next.content }] : next.content;
      const results = rest.filter((block) => block.type === 'tool_result');
      const others = rest.filter((block) => block.type !== 'tool_result');
      // Results first, in the model's order, then whatever the user added.
      const ordered = ids
        .map((id) => results.find((block) => block.toolUseId === id) ?? added.find((block) => block.toolUseId === id))
        .filter((block): block is ToolResultBlock => block !== undefined);
      messages.push({ ...next, content: [...ordered, ...others] });
      index++;
    } else {
      messages.push({ role: 'user', content: added });
    }
  }
  return { messages, repairedToolCallIds };
}
