import { useQuery } from '@tanstack/react-query';
import type { ProviderJson } from '../../../../src/http/api-types/index.js';
import { listProviders } from '../../api/settings';
import { ErrorNotice } from '../../components/ErrorNotice';

/** Where a provider's key comes from, in words (the key itself never reaches the dashboard). */
export function keyState(provider: ProviderJson): { label: string; badge: string } {
  switch (provider.credentialSource) {
    case 'option':
    case 'file':
      return { label: 'set', badge: 'badge badge-success' };
    case 'environment':
      return {
        label: `from environment (${provider.credentialVariables.join(', ')})`,
        badge: 'badge badge-success',
      };
    case 'not-needed':
      return { label: 'not needed', badge: 'badge' };
    default:
      return { label: 'missing', badge: 'badge badge-warning' };
  }
}

/** The providers and their key state; configured ones first. */
export function ProvidersSection() {
  const providers = useQuery({ queryKey: ['providers'], queryFn: ({ signal }) => listProviders(signal) });
  const list = [...(providers.data?.providers ?? [])].sort(
    (a, b) => Number(b.configured) - Number(a.configured) || a.name.localeCompare(b.name),
  );
  return (
    <section className="card stack" aria-labelledby="settings-providers">
      <h2 id="settings-providers">Providers</h2>
      <p className="muted">
        Keys live in the workspace's secrets file or the environment; set one with <code>boxagnts secrets set</code>.
        The dashboard only ever learns whether a key is there.
      </p>
      <ErrorNotice error={providers.error} label="Could not list the providers" />
      {providers.isPending ? <p role="status">Loading the providers…</p> : null}
      {list.length === 0 ? null : (
        <div className="table-scroll">
          <table className="table">
            <caption className="visually-hidden">Providers and their key state</caption>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Key</th>
                <th scope="col">Ready</th>
                <th scope="col">Missing</th>
              </tr>
            </thead>
            <tbody>
              {list.map((provider) => {
                const state = keyState(provider);
                return (
                  <tr key={provider.id}>
                    <th scope="row">
                      {provider.name} <span className="muted">({provider.id})</span>
                    </th>
                    <td>
                      <span className={state.badge}>{state.label}</span>
                    </td>
                    <td>{provider.configured ? 'yes' : 'no'}</td>
                    <td>{provider.missing.join(', ')}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
