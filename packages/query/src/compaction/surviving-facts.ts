import type { Message } from '@boxagnts/api';
import type { AgentDefinition } from '../config.js';

const PATH_FIELDS = ['file_path', 'path', 'notebook_path'] as const;

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
      if (text !== '' && !text.startsWith('[Conversation summary]')) {
        userRequests.push(text.length > 2000 ? `${text.slice(0, 2000)}...` : text);
      } else if (text.startsWith('[Conversation summary]')) {
        userRequests.push(text.length > 4000 ? `${text.slice(0, 4000)}...` : text);
      }
    }
  }
  const sections: string[] = [];
  if (userRequests.length > 0) {
    sections.push(
      `What the user asked (verbatim):\n${userRequests.map((request) => `> ${request.replaceAll('\n', '\n> ')}`).join('\n\n')}`,
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
