import { type AnyTool, accessAllows } from '@boxagnts/tools';
import type { AgentDefinition } from './config.js';

/**
 * The three built-in agents: `build` does the work (every tool), `plan` thinks it through without
 * changing anything (read-only tools and the web), `explore` looks around the project (search and
 * read tools only).
 */
export const BUILTIN_AGENTS: Readonly<Record<'build' | 'plan' | 'explore', AgentDefinition>> = {
  build: {
    name: 'build',
    description: 'Does the work: reads, edits, runs commands and tests until the task is done.',
    access: 'full',
  },
  plan: {
    name: 'plan',
    description: 'Plans without changing anything: reads the code, researches, and writes a step-by-step plan.',
    prompt:
      'You are the planning agent. Do not change files or run commands that change state: you have read-only tools. ' +
      'Study the code and the task, then answer with a concrete, numbered plan (files, changes, tests, risks).',
    access: 'read-only',
  },
  explore: {
    name: 'explore',
    description: 'Finds things fast: searches and reads the project and reports what it found, with paths.',
    prompt:
      'You are the explore agent. Search and read the project to answer the question; report findings with file paths ' +
      'and line numbers. You cannot change anything.',
    access: 'search-only',
  },
};

/** The tools an agent definition admits (by permission level, as tools-manager does). */
export function toolsForAgent(tools: readonly AnyTool[], agent: AgentDefinition | undefined): readonly AnyTool[] {
  if (agent === undefined || agent.access === 'full') return tools;
  return tools.filter((tool) => accessAllows(agent.access, tool.permission));
}
