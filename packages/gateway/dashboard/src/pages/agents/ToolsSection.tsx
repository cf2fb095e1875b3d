import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ToolOrigin } from '../../../../src/http/api-types/index.js';
import { listAgents, listTools } from '../../api/catalog';
import { ErrorNotice } from '../../components/ErrorNotice';

const ORIGIN_LABEL: Record<ToolOrigin, string> = {
  'built-in': 'built-in',
  component: 'component',
  mcp: 'MCP',
  plugin: 'plugin',
  custom: 'custom',
};

const ORIGIN_HELP: Record<ToolOrigin, string> = {
  'built-in': 'part of BoxAgnts',
  component: 'a sandboxed WebAssembly component',
  mcp: 'from an MCP server',
  plugin: 'from a tool plugin',
  custom: 'from a custom source',
};

/** One agent's tool set (pick the agent), with each tool's origin, source, permission and whether it is loaded. */
export function ToolsSection() {
  const agents = useQuery({ queryKey: ['agents'], queryFn: ({ signal }) => listAgents(signal) });
  const [agent, setAgent] = useState<string | undefined>();
  const [filter, setFilter] = useState('');
  const selectId = useId();
  const chosen = agent ?? agents.data?.defaultAgent;
  const tools = useQuery({
    queryKey: ['tools', chosen],
    queryFn: ({ signal }) => listTools(chosen, signal),
    enabled: chosen !== undefined,
    placeholderData: keepPreviousData,
  });
  const needle = filter.trim().toLowerCase();
  const rows = (tools.data?.tools ?? []).filter(
    (tool) =>
      needle === '' ||
      tool.name.toLowerCase().includes(needle) ||
      tool.description.toLowerCase().includes(needle) ||
      tool.origin.includes(needle) ||
      tool.source.toLowerCase().includes(needle),
  );
  const counts = new Map<ToolOrigin, number>();
  for (const tool of tools.data?.tools ?? []) counts.set(tool.origin, (counts.get(tool.origin) ?? 0) + 1);

  return (
    <section className="catalog-section" aria-labelledby="tools-heading">
      <h2 id="tools-heading">Tools</h2>
      <div className="row tools-controls">
        <label className="field" htmlFor={selectId}>
          <span>Agent</span>
          <select id={selectId} value={chosen ?? ''} onChange={(event) => setAgent(event.target.value)}>
            {(agents.data?.agents ?? []).map((item) => (
              <option key={item.name} value={item.name}>
                {item.name} ({item.access})
              </option>
            ))}
          </select>
        </label>
        <label className="field grow">
          <span>Filter tools</span>
          <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
        </label>
      </div>
      <ErrorNotice error={tools.error} label="Could not list the tools" />
      {tools.isPending && chosen !== undefined ? <p role="status">Loading the tools…</p> : null}
      {tools.data === undefined ? null : (
        <p className="muted" role="status">
          {tools.data.tools.length} tools for {tools.data.agent}:{' '}
          {[...counts].map(([origin, count]) => `${count} ${ORIGIN_LABEL[origin]}`).join(', ')}
          {rows.length === tools.data.tools.length ? '' : ` (${rows.length} shown)`}
        </p>
      )}
      {tools.data !== undefined && rows.length === 0 ? <p className="muted">No tool matches the filter.</p> : null}
      {rows.length === 0 ? null : (
        <table className="table tools-table">
          <caption className="visually-hidden">Tools of {tools.data?.agent} and where each comes from</caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Origin</th>
              <th scope="col">Source</th>
              <th scope="col">Permission</th>
              <th scope="col">Loaded</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((tool) => (
              <tr key={tool.name}>
                <th scope="row">
                  <code>{tool.name}</code>
                </th>
                <td>
                  <span className={`badge origin-${tool.origin}`} title={ORIGIN_HELP[tool.origin]}>
                    {ORIGIN_LABEL[tool.origin]}
                  </span>
                </td>
                <td>
                  <code>{tool.source}</code>
                </td>
                <td>{tool.permission}</td>
                <td>{tool.loaded ? 'yes' : 'deferred (tool_search)'}</td>
                <td className="tool-description">{tool.description.split('\n')[0]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
