import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { listModels } from '../../api/settings';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCount } from '../usage/usage-format';

function perMillion(value: number | undefined): string {
  return value === undefined ? '' : `$${value.toFixed(2)}`;
}

/** The catalogue models of the configured providers, with context sizes and prices per million tokens. */
export function ModelsSection() {
  const models = useQuery({ queryKey: ['models'], queryFn: ({ signal }) => listModels(signal) });
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const list = (models.data?.models ?? []).filter(
    (model) => needle === '' || model.id.toLowerCase().includes(needle) || model.name.toLowerCase().includes(needle),
  );
  return (
    <section className="card stack" aria-labelledby="settings-models">
      <h2 id="settings-models">Models and prices</h2>
      {models.data === undefined ? null : (
        <p>
          Default model: <code>{models.data.defaultModel}</code>
        </p>
      )}
      <ErrorNotice error={models.error} label="Could not list the models" />
      {models.isPending ? <p role="status">Loading the models…</p> : null}
      <div className="field settings-filter">
        <label htmlFor="models-filter">Filter models</label>
        <input id="models-filter" type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
      </div>
      {models.data !== undefined && list.length === 0 ? (
        <p className="muted">{needle === '' ? 'No configured provider has catalogue models.' : 'No model matches.'}</p>
      ) : null}
      {list.length === 0 ? null : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls, so it must take focus to scroll by keyboard (WCAG 2.1.1)
        <section className="table-scroll settings-models" tabIndex={0} aria-label="Models (scrolls)">
          <table className="table">
            <caption className="visually-hidden">Models with prices in USD per million tokens</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col" className="num">
                  Context
                </th>
                <th scope="col" className="num">
                  Input / M
                </th>
                <th scope="col" className="num">
                  Output / M
                </th>
                <th scope="col" className="num">
                  Cache read / M
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((model) => (
                <tr key={model.id}>
                  <th scope="row">
                    {model.name} <span className="muted">{model.id}</span>
                  </th>
                  <td className="num">{model.contextWindow === undefined ? '' : formatCount(model.contextWindow)}</td>
                  <td className="num">{perMillion(model.price?.input)}</td>
                  <td className="num">{perMillion(model.price?.output)}</td>
                  <td className="num">{perMillion(model.price?.cacheRead)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
