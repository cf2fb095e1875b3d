import { describe, expect, it } from 'vitest';
import { createProviderRegistry } from './registry.js';

/**
 * Every provider id BoxAgnts knows, from its source (github.com/guyoung/boxagnts at be1cd945f637):
 * the `ProviderId` constants of `core/src/provider_id.rs`, then the other spellings its
 * `openai_compat_providers.rs` (`provider_for_id`), `registry.rs` and `workspace/src/config.rs`
 * accept for the same providers.
 */
const BOXAGNTS_PROVIDER_IDS = [
  'anthropic',
  'openai',
  'google',
  'google-vertex',
  'amazon-bedrock',
  'azure',
  'github-copilot',
  'mistral',
  'xai',
  'groq',
  'deepinfra',
  'cerebras',
  'cohere',
  'crof',
  'together-ai',
  'perplexity',
  'openrouter',
  'ollama',
  'lm-studio',
  'llama-cpp',
  'deepseek',
  'gitlab',
  'cloudflare',
  'venice',
  'sap',
  'sambanova',
  'huggingface',
  'nvidia',
  'siliconflow',
  'moonshotai',
  'zhipuai',
  'zai',
  'nebius',
  'ovhcloud',
  'scaleway',
  'vultr',
  'baseten',
  'friendli',
  'upstage',
  'stepfun',
  'fireworks',
  'novita',
  'minimax',
  'codex',
  'opencode-go',
  'opencode-zen',
  'synthetic',
  'routing',
  'neuralwatt',
  'free',
] as const;

const BOXAGNTS_OTHER_SPELLINGS = [
  'lmstudio',
  'llamacpp',
  'llama-server',
  'qwen',
  'alibaba',
  'moonshot',
  'zhipu',
  'vultr-ai',
  'openai-codex',
  'togetherai',
  'custom-openai',
  'cloudflare-workers-ai',
  'sap-ai-core',
] as const;

describe("BoxAgnts' provider ids", () => {
  const registry = createProviderRegistry({ env: {} });

  it.each([...BOXAGNTS_PROVIDER_IDS, ...BOXAGNTS_OTHER_SPELLINGS])('%s resolves to a row and a provider', (id) => {
    const rowId = registry.resolveId(id);
    expect(rowId, `${id} resolves to no row`).toBeDefined();
    const provider = registry.getProvider(id);
    expect(provider.id).toBe(rowId);
    const resolved = registry.resolve(`${id}/some-model`);
    expect(resolved.model).toBe('some-model');
    expect(resolved.entry.id).toBe(rowId);
  });

  it('aliases land on the rows (and regions) BoxAgnts means', () => {
    const targets = Object.fromEntries(
      registry.aliases().map((alias) => [alias.alias, [alias.provider, alias.region]]),
    );
    expect(targets).toMatchObject({
      'google-vertex': ['vertex', undefined],
      azure: ['azure-openai', undefined],
      'together-ai': ['together', undefined],
      'lm-studio': ['lmstudio', undefined],
      moonshotai: ['moonshot', undefined],
      zhipuai: ['zhipu', 'china'],
      zai: ['zhipu', 'international-coding'],
      alibaba: ['qwen', undefined],
      'openai-codex': ['codex', undefined],
    });
    expect(registry.list().find((status) => status.id === 'together')?.aliases).toEqual(['together-ai', 'togetherai']);
  });

  it('an alias with a region reaches that endpoint, unless the caller picks another', () => {
    const zai = registry.createProvider({ provider: 'zai', baseURL: undefined });
    expect(zai.id).toBe('zhipu');
    const other = createProviderRegistry({ env: {}, providerOptions: { zai: { region: 'international' } } });
    expect(() => other.getProvider('zai')).not.toThrow();
  });

  it('refuses aliases that collide, name themselves or chain', () => {
    const fresh = createProviderRegistry({ env: {} });
    expect(() => fresh.registerAlias({ alias: 'groq', provider: 'openai' })).toThrow(/already a provider id/);
    expect(() => fresh.registerAlias({ alias: 'azure', provider: 'openai' })).toThrow(/already an alias/);
    expect(() => fresh.registerAlias({ alias: 'self', provider: 'self' })).toThrow(/names itself/);
    expect(() => fresh.registerAlias({ alias: 'twice', provider: 'azure' })).toThrow(/itself an alias/);
    expect(() => fresh.registerAlias({ alias: 'Bad Name', provider: 'openai' })).toThrow(/invalid/);
    fresh.registerAlias({ alias: 'my-groq', provider: 'groq' });
    expect(fresh.resolveId('my-groq')).toBe('groq');
    fresh.registerAlias({ alias: 'orphan', provider: 'not-registered' });
    expect(fresh.resolveId('orphan')).toBeUndefined();
    expect(() => fresh.getProvider('orphan')).toThrow(/alias of "not-registered", which is not registered/);
  });
});
