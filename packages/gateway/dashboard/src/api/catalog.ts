import type { AgentListJson, SkillListJson, ToolListJson } from '../../../src/http/api-types/index.js';
import { request } from './http';

export function listAgents(signal?: AbortSignal) {
  return request<AgentListJson>('/agents', signal === undefined ? {} : { signal });
}

export function listSkills(signal?: AbortSignal) {
  return request<SkillListJson>('/skills', signal === undefined ? {} : { signal });
}

/** The tool set of an agent (default: the workspace's default agent), with where each tool comes from. */
export function listTools(agent: string | undefined, signal?: AbortSignal) {
  return request<ToolListJson>('/tools', { query: { agent }, ...(signal === undefined ? {} : { signal }) });
}
