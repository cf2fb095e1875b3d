import { afterEach, describe, expect, it } from 'vitest';
import { isProviderConfigurationError } from '../provider-configuration-error.js';
import type { ProviderEntry } from '../provider-entry.js';
import {
  CANARY_KEY,
  closeMocks,
  expectHelloResponse,
  helloRequest,
  MASKED_CANARY,
  mockBaseURL,
  onlyRequest,
  startHelloMock,
  streamOnce,
} from '../provider-row.test.helpers.js';
import { createProviderRegistry } from '../registry.js';
import { basetenProvider } from './baseten.js';
import { cloudflareProvider } from './cloudflare.js';
import { crofProvider } from './crof.js';
import { deepinfraProvider } from './deepinfra.js';
import { friendliProvider } from './friendli.js';
import { gitlabProvider } from './gitlab.js';
import { huggingfaceProvider } from './huggingface.js';
import { llamaCppProvider } from './llama-cpp.js';
import { nebiusProvider } from './nebius.js';
import { neuralwattProvider } from './neuralwatt.js';
import { novitaProvider } from './novita.js';
import { nvidiaProvider } from './nvidia.js';
import { opencodeGoProvider } from './opencode-go.js';
import { opencodeZenProvider } from './opencode-zen.js';
import { ovhcloudProvider } from './ovhcloud.js';
import { routingProvider } from './routing.js';
import { sambanovaProvider } from './sambanova.js';
import { sapProvider } from './sap.js';
import { scalewayProvider } from './scaleway.js';
import { stepfunProvider } from './stepfun.js';
import { syntheticProvider } from './synthetic.js';
import { upstageProvider } from './upstage.js';
import { veniceProvider } from './venice.js';
import { vultrProvider } from './vultr.js';

// The OpenAI-compatible hosts of BoxAgnts' provider table. The endpoint and key variable of each are
// written here from the vendors' documentation (see each row's comment), not read from the rows, so a
// row that drifts fails.
const ROWS: Record<string, ProviderEntry> = {
  deepinfra: deepinfraProvider,
  venice: veniceProvider,
  sambanova: sambanovaProvider,
  huggingface: huggingfaceProvider,
  nvidia: nvidiaProvider,
  nebius: nebiusProvider,
  novita: novitaProvider,
  ovhcloud: ovhcloudProvider,
  scaleway: scalewayProvider,
  vultr: vultrProvider,
  baseten: basetenProvider,
  friendli: friendliProvider,
  upstage: upstageProvider,
  stepfun: stepfunProvider,
  'llama-cpp': llamaCppProvider,
  crof: crofProvider,
  synthetic: syntheticProvider,
  routing: routingProvider,
  neuralwatt: neuralwattProvider,
  'opencode-zen': opencodeZenProvider,
  'opencode-go': opencodeGoProvider,
  cloudflare: cloudflareProvider,
  gitlab: gitlabProvider,
  sap: sapProvider,
};

const ENDPOINTS: Array<[id: string, endpoint: string, keyVariable: string]> = [
  ['deepinfra', 'https://api.deepinfra.com/v1/openai/chat/completions', 'DEEPINFRA_API_KEY'],
  ['venice', 'https://api.venice.ai/api/v1/chat/completions', 'VENICE_API_KEY'],
  ['sambanova', 'https://api.sambanova.ai/v1/chat/completions', 'SAMBANOVA_API_KEY'],
  ['huggingface', 'https://router.huggingface.co/v1/chat/completions', 'HF_TOKEN'],
  ['nvidia', 'https://integrate.api.nvidia.com/v1/chat/completions', 'NVIDIA_API_KEY'],
  ['nebius', 'https://api.tokenfactory.nebius.com/v1/chat/completions', 'NEBIUS_API_KEY'],
  ['novita', 'https://api.novita.ai/openai/chat/completions', 'NOVITA_API_KEY'],
  ['ovhcloud', 'https://oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions', 'OVHCLOUD_API_KEY'],
  ['scaleway', 'https://api.scaleway.ai/v1/chat/completions', 'SCALEWAY_API_KEY'],
  ['vultr', 'https://api.vultrinference.com/v1/chat/completions', 'VULTR_API_KEY'],
  ['baseten', 'https://inference.baseten.co/v1/chat/completions', 'BASETEN_API_KEY'],
  ['friendli', 'https://api.friendli.ai/serverless/v1/chat/completions', 'FRIENDLI_TOKEN'],
  ['upstage', 'https://api.upstage.ai/v1/chat/completions', 'UPSTAGE_API_KEY'],
  ['stepfun', 'https://api.stepfun.com/v1/chat/completions', 'STEPFUN_API_KEY'],
  ['llama-cpp', 'http://127.0.0.1:8080/v1/chat/completions', 'LLAMA_CPP_API_KEY'],
  ['crof', 'https://api.crof.ai/v1/chat/completions', 'CROF_API_KEY'],
  ['synthetic', 'https://api.synthetic.new/openai/v1/chat/completions', 'SYNTHETIC_API_KEY'],
  ['routing', 'https://api.routing.run/v1/chat/completions', 'ROUTING_API_KEY'],
  ['neuralwatt', 'https://api.neuralwatt.com/v1/chat/completions', 'NEURALWATT_API_KEY'],
  ['opencode-zen', 'https://opencode.ai/zen/v1/chat/completions', 'OPENCODE_API_KEY'],
  ['opencode-go', 'https://opencode.ai/zen/go/v1/chat/completions', 'OPENCODE_API_KEY'],
  [
    'cloudflare',
    'https://api.cloudflare.com/client/v4/accounts/acct-123/ai/v1/chat/completions',
    'CLOUDFLARE_API_TOKEN',
  ],
];

afterEach(closeMocks);

function registryFor(row: ProviderEntry, env: Record<string, string>) {
  return createProviderRegistry({ providers: [row], env, aliases: [] });
}

describe('OpenAI-compatible host rows', () => {
  it.each(ENDPOINTS)('%s: streams from %s with the key of %s as a Bearer token', async (id, endpoint, keyVariable) => {
    const row = ROWS[id] as ProviderEntry;
    const mock = await startHelloMock();
    const env: Record<string, string> = { [keyVariable]: CANARY_KEY };
    if (id === 'cloudflare') env.CLOUDFLARE_ACCOUNT_ID = 'acct-123';
    const registry = registryFor(row, env);
    // The row's own URL with the mock's origin, so the full path the vendor would get is checked.
    const template = (row.baseURL as string).replace('{account}', 'acct-123');
    const provider = registry.createProvider({
      provider: id,
      baseURL: mockBaseURL(mock, template),
      retry: { maxRetries: 0 },
    });
    const { events, response } = await streamOnce(provider, helloRequest(row.defaultModel ?? 'some-model'));
    expectHelloResponse(events, response);
    const request = onlyRequest(mock);
    expect(request.path).toBe(new URL(endpoint).pathname);
    expect(request.headers.authorization).toBe(`Bearer ${MASKED_CANARY}`);
    expect(new URL(template).origin).toBe(new URL(endpoint).origin);
    expect(registry.list()[0]?.configured).toBe(true);
  });

  it('cloudflare fills the account id into the URL and names CLOUDFLARE_ACCOUNT_ID when it is missing', async () => {
    const registry = registryFor(cloudflareProvider, { CLOUDFLARE_API_TOKEN: CANARY_KEY });
    expect(registry.list()[0]?.missing).toEqual(['parameter account']);
    const { events } = await streamOnce(registry.getProvider('cloudflare'), helloRequest('@cf/openai/gpt-oss-120b'));
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' ? last.error.message : '').toContain('CLOUDFLARE_ACCOUNT_ID');
  });

  it.each([
    ['gitlab', gitlabProvider],
    ['sap', sapProvider],
  ] as const)(
    '%s has no default address: it resolves, says to pass baseURL, and works once given one',
    async (id, row) => {
      const registry = registryFor(row, { [row.apiKeyEnvVars[0] as string]: CANARY_KEY });
      expect(registry.list()[0]?.missing).toEqual(['baseURL']);
      const { events } = await streamOnce(registry.getProvider(id), helloRequest('some-model'));
      const last = events.at(-1);
      expect(last?.type === 'error' && isProviderConfigurationError(last.error.cause ?? last.error)).toBe(true);
      expect(last?.type === 'error' ? last.error.message : '').toContain('baseURL');
      const mock = await startHelloMock();
      const provider = registry.createProvider({ provider: id, baseURL: `${mock.url}/v1`, retry: { maxRetries: 0 } });
      const { events: served, response } = await streamOnce(provider, helloRequest('some-model'));
      expectHelloResponse(served, response);
      expect(onlyRequest(mock).path).toBe('/v1/chat/completions');
    },
  );

  it('keyless local and free-tier rows send no key when none is set', async () => {
    for (const row of [llamaCppProvider, ovhcloudProvider]) {
      const mock = await startHelloMock();
      const registry = registryFor(row, {});
      expect(registry.list()[0]?.configured).toBe(true);
      const provider = registry.createProvider({
        provider: row.id,
        baseURL: mockBaseURL(mock, row.baseURL),
        retry: { maxRetries: 0 },
      });
      const { events, response } = await streamOnce(provider, helloRequest(row.defaultModel ?? 'm'));
      expectHelloResponse(events, response);
      expect(onlyRequest(mock).headers.authorization).toBeUndefined();
    }
  });

  it('a missing key names every variable checked', async () => {
    const registry = registryFor(huggingfaceProvider, {});
    expect(registry.list()[0]?.missing).toEqual(['an API key: HF_TOKEN, HUGGINGFACE_HUB_TOKEN, HUGGINGFACE_API_KEY']);
    const { events } = await streamOnce(registry.getProvider('huggingface'), helloRequest('Qwen/Qwen3-Coder-Next'));
    const last = events.at(-1);
    expect(last?.type === 'error' ? last.error.message : '').toContain('HF_TOKEN, HUGGINGFACE_HUB_TOKEN');
  });

  it('stepfun reaches its international platform with region "international"', async () => {
    expect(stepfunProvider.regionalBaseURLs?.international).toBe('https://api.stepfun.ai/v1');
    const registry = registryFor(stepfunProvider, { STEPFUN_API_KEY: CANARY_KEY });
    expect(() => registry.createProvider({ provider: 'stepfun', region: 'mars' })).toThrow(/has no region "mars"/);
  });
});
