import type { Message } from '@boxagnts/api';
import type { AgentDefinition } from '../config.js';
import { MAX_TOKENS_RESUME_PROMPT } from '../recovery/resume-prompt.js';

const PATH_FIELDS = ['file_path', 'path', 'notebook_path'] as const;

/** How a compaction summary message begins. */
export const SUMMARY_PREFIX = '[Conversation summary]';

/** Heading of the model-written summary, after the facts kept verbatim. */
export const SUMMARY_HEADING = 'Summary of the earlier turns:';

/** Characters of one user request kept verbatim; a longer one keeps its head and tail. */
export const REQUEST_CHARS = 8_000;
/** Requests carried from summary to summary; past it the first is kept and the oldest others drop. */
export const MAX_REQUESTS = 20;

const OPEN = '<user_request>';
const CLOSE = '</user_request>';
const ESCAPED_CLOSE = '<\\/user_request>';

function quoteRequest(request: string): string {
  return `${OPEN}\n${request.replaceAll(CLOSE, ESCAPED_CLOSE)}\n${CLOSE}`;
}

/** The requests an earlier summary quoted, verbatim. */
function quotedRequests(message: string): string[] {
  const found: string[] = [];
  // Only the verbatim part: whatever the model wrote in its summary is never taken for a request.
  const heading = message.indexOf(`\n${SUMMARY_HEADING}\n`);
  const summary = heading < 0 ? message : message.slice(0, heading);
  let from = 0;
  for (;;) {
    const start = summary.indexOf(`${OPEN}\n`, from);
    if (start < 0) return found;
    const end = summary.indexOf(`\n${CLOSE}`, start + OPEN.length + 1);
    if (end < 0) return found;
    found.push(summary.slice(start + OPEN.length + 1, end).replaceAll(ESCAPED_CLOSE, CLOSE));
    from = end + CLOSE.length + 1;
  }
}

function pushRequest(requests: string[], text: string): void {
  const bounded =
    text.length > REQUEST_CHARS
      ? `${text.slice(0, REQUEST_CHARS / 2)}\n[... ${text.length - REQUEST_CHARS} characters cut ...]\n${text.slice(-REQUEST_CHARS / 2)}`
      : text;
  if (requests.includes(bounded)) return;
  requests.push(bounded);
  // The first request (the task) always stays; the oldest of the others go first.
  if (requests.length > MAX_REQUESTS) requests.splice(1, 1);
}

/** What must survive a compaction, as text for the summary message and as lists for tests. */
export interface SurvivingFacts {
  text: string;
  filesTouched: string[];
  skillsUsed: string[];
  userRequests: string[];
}

function userText(message: Message): string {
  if (message.role !== 'user') return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((block) => block.type === 'text')
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n');
}

/**
 * Collects what a summary must not lose from the part of the history being summarised: the
 * user's own requests (verbatim, bounded), files the tools touched, skills in use, the agent's
 * constraints, AGENTS.md being in force, and facts the host asked to preserve.
 */
export function survivingFacts(
  older: readonly Message[],
  options: { agent?: AgentDefinition; agentsMd?: string; preserve: readonly string[] },
): SurvivingFacts {
  const files = new Set<string>();
  const skills = new Set<string>();
  const userRequests: string[] = [];
  for (const message of older) {
    if (message.role === 'assistant') {
      for (const block of message.content) {
        if (block.type !== 'tool_use') continue;
        for (const field of PATH_FIELDS) {
          const value = block.input[field];
          if (typeof value === 'string' && value !== '') files.add(value);
        }
        const skill = block.input.skill ?? block.input.name;
        if (block.name === 'skill' && typeof skill === 'string') skills.add(skill);
      }
    } else {
      const text = userText(message).trim();
      if (text.startsWith(SUMMARY_PREFIX)) {
        // An earlier summary: its requests are carried over verbatim, never its (re-summarised) text.
        for (const request of quotedRequests(text)) pushRequest(userRequests, request);
      } else if (text !== '' && text !== MAX_TOKENS_RESUME_PROMPT) pushRequest(userRequests, text);
    }
  }
  const sections: string[] = [];
  if (userRequests.length > 0) {
    sections.push(
      `What the user asked (verbatim, oldest first; these still apply):\n${userRequests.map(quoteRequest).join('\n')}`,
    );
  }
  if (options.agent?.prompt)
    sections.push(`Constraints of the ${options.agent.name} agent still apply:\n${options.agent.prompt.trim()}`);
  if (options.agentsMd?.trim()) sections.push('The project instructions (AGENTS.md) in the system prompt still apply.');
  if (skills.size > 0)
    sections.push(`Skills in use: ${[...skills].join(', ')} (load again with the skill tool if needed).`);
  if (files.size > 0) sections.push(`Files touched so far: ${[...files].join(', ')}.`);
  if (options.preserve.length > 0) sections.push(`Facts to keep:\n- ${options.preserve.join('\n- ')}`);
  return { text: sections.join('\n\n'), filesTouched: [...files], skillsUsed: [...skills], userRequests };
}
