import { useQuery } from '@tanstack/react-query';
import { listAgents } from '../../api/catalog';
import { ErrorNotice } from '../../components/ErrorNotice';

/** What each access level lets an agent's tools do (the config's `access`). */
export const ACCESS_HELP: Record<string, string> = {
  full: 'reads, writes and runs commands',
  'read-only': 'reads files, never writes',
  'search-only': 'searches and reads, no commands',
};

export function AgentsTable() {
  const agents = useQuery({ queryKey: ['agents'], queryFn: ({ signal }) => listAgents(signal) });
  return (
    <section className="catalog-section" aria-labelledby="agents-heading">
      <h2 id="agents-heading">Agents</h2>
      <ErrorNotice error={agents.error} label="Could not list the agents" />
      {agents.isPending ? <p role="status">Loading the agents…</p> : null}
      {agents.data === undefined ? null : (
        <table className="table">
          <caption className="visually-hidden">Agents with their access levels and models</caption>
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Description</th>
              <th scope="col">Access</th>
              <th scope="col">Model</th>
              <th scope="col">Kind</th>
            </tr>
          </thead>
          <tbody>
            {agents.data.agents.map((agent) => (
              <tr key={agent.name}>
                <th scope="row">
                  {agent.name}
                  {agent.name === agents.data.defaultAgent ? (
                    <>
                      {' '}
                      <span className="badge badge-success">default</span>
                    </>
                  ) : null}
                </th>
                <td>{agent.description}</td>
                <td>
                  <span className={`badge ${agent.access === 'full' ? 'badge-warning' : ''}`}>{agent.access}</span>
                  <div className="muted small">{ACCESS_HELP[agent.access] ?? ''}</div>
                </td>
                <td>{agent.model ?? <span className="muted">workspace default</span>}</td>
                <td>
                  {agent.builtin ? 'built in' : 'configured'}
                  {agent.visible ? '' : ' (hidden)'}
                  {agent.maxTurns === undefined ? null : (
                    <div className="muted small">at most {agent.maxTurns} turns</div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
