import { useQuery } from '@tanstack/react-query';
import { listMcpServers } from '../../api/settings';
import { ErrorNotice } from '../../components/ErrorNotice';

const STATE_BADGE: Record<string, string> = {
  connected: 'badge badge-success',
  failed: 'badge badge-danger',
  reconnecting: 'badge badge-warning',
  connecting: 'badge badge-warning',
};

/** The MCP servers of the config and how their connections stand. */
export function McpSection() {
  const servers = useQuery({ queryKey: ['mcp-servers'], queryFn: ({ signal }) => listMcpServers(signal) });
  const list = servers.data?.servers ?? [];
  return (
    <section className="card stack" aria-labelledby="settings-mcp">
      <h2 id="settings-mcp">MCP servers</h2>
      <ErrorNotice error={servers.error} label="Could not read the MCP servers" />
      {servers.isPending ? <p role="status">Connecting to the MCP servers…</p> : null}
      {servers.data !== undefined && list.length === 0 ? (
        <p className="muted">
          No MCP servers. Add one under <code>mcpServers</code> in boxagnts.json.
        </p>
      ) : null}
      {list.length === 0 ? null : (
        <table className="table">
          <caption className="visually-hidden">MCP servers</caption>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Transport</th>
              <th scope="col">State</th>
              <th scope="col" className="num">
                Tools
              </th>
              <th scope="col">Last problem</th>
            </tr>
          </thead>
          <tbody>
            {list.map((server) => (
              <tr key={server.server}>
                <th scope="row">
                  {server.server}
                  {server.serverInfo === undefined ? null : (
                    <div className="muted">
                      {server.serverInfo.name} {server.serverInfo.version}
                    </div>
                  )}
                </th>
                <td>{server.transport}</td>
                <td>
                  <span className={STATE_BADGE[server.state] ?? 'badge'}>{server.state}</span>
                </td>
                <td className="num">{server.toolCount}</td>
                <td>{server.lastError ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
