import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalogue } from './build-catalogue.js';
import { smallModelsDev } from './catalogue.test.helpers.js';
import { getActiveCatalogue, getShippedCatalogue, setActiveCatalogue } from './catalogue-store.js';
import { findModel, listCatalogueModels, toModelInfo } from './lookup.js';

/** `provider/id` of the row found, or undefined. */
function found(modelId: string, provider?: string): string | undefined {
  const model = findModel(modelId, provider === undefined ? {} : { provider });
  return model && `${model.provider}/${model.id}`;
}

describe('findModel on the shipped catalogue', () => {
  it('finds by exact id, by alias and case-insensitively', () => {
    expect(found('claude-sonnet-4-5')).toBe('anthropic/claude-sonnet-4-5');
    expect(found('claude-sonnet-4-5-20250929')).toBe('anthropic/claude-sonnet-4-5'); // an alias of the row
    expect(findModel('claude-sonnet-4-5')?.aliases).toEqual(['claude-sonnet-4-5-20250929']);
    expect(found('grok-3-latest')).toBe('xai/grok-3');
    expect(found('CLAUDE-SONNET-4-5')).toBe('anthropic/claude-sonnet-4-5');
    expect(found('minimax-m2.5', 'minimax')).toBe('minimax/MiniMax-M2.5');
  });

  it('finds dated snapshots it has never seen, -latest rows and ISO dates by their undated model', () => {
    expect(found('claude-sonnet-4-5-20991231')).toBe('anthropic/claude-sonnet-4-5');
    expect(found('claude-sonnet-4-5-2025-09-29')).toBe('anthropic/claude-sonnet-4-5');
    expect(found('claude-3-5-haiku')).toBe('anthropic/claude-3-5-haiku-latest');
    expect(found('mistral-large')).toBe('mistral/mistral-large-latest');
  });

  it('keeps a snapshot priced apart from its undated model as its own row', () => {
    expect(found('gpt-4o-2024-05-13')).toBe('openai/gpt-4o-2024-05-13');
    expect(findModel('gpt-4o-2024-05-13')?.price?.input).toBe(5);
    expect(findModel('gpt-4o')?.price?.input).toBe(2.5);
  });

  it('reads Vertex and Bedrock spellings', () => {
    expect(found('claude-sonnet-4-5', 'vertex')).toBe('google-vertex/claude-sonnet-4-5@20250929');
    expect(found('claude-sonnet-4-5-20250929', 'vertex')).toBe('google-vertex/claude-sonnet-4-5@20250929');
    expect(found('claude-sonnet-4-6', 'vertex')).toBe('google-vertex/claude-sonnet-4-6@default');
    expect(found('claude-sonnet-4-5@20250929', 'anthropic')).toBe('anthropic/claude-sonnet-4-5');
    expect(found('us.anthropic.claude-sonnet-4-5-20250929-v1:0')).toBe(
      'amazon-bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
    // A region prefix the catalogue lacks falls back to the in-region id.
    expect(found('apac.anthropic.claude-sonnet-4-5-20250929-v1:0', 'amazon-bedrock')).toBe(
      'amazon-bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
    expect(found('claude-sonnet-4-5', 'amazon-bedrock')).toBe(
      'amazon-bedrock/anthropic.claude-sonnet-4-5-20250929-v1:0',
    );
    expect(found('claude-opus-4-6', 'amazon-bedrock')).toBe('amazon-bedrock/anthropic.claude-opus-4-6-v1');
    expect(found('us.anthropic.claude-sonnet-4-5-20250929-v1:0', 'anthropic')).toBe('anthropic/claude-sonnet-4-5');
  });

  it('reads provider/model strings, the vendor named by the prefix first', () => {
    expect(found('anthropic/claude-sonnet-4.5')).toBe('anthropic/claude-sonnet-4-5');
    expect(found('openrouter/anthropic/claude-sonnet-4.5')).toBe('openrouter/anthropic/claude-sonnet-4.5');
    expect(found('anthropic/claude-sonnet-4.5', 'openrouter')).toBe('openrouter/anthropic/claude-sonnet-4.5');
    expect(found('vertex/gemini-2.5-pro')).toBe('google-vertex/gemini-2.5-pro');
  });

  it('searches the vendor before clouds and routers when no provider is given', () => {
    expect(found('gemini-2.5-pro')).toBe('google/gemini-2.5-pro');
    expect(found('gpt-4o')).toBe('openai/gpt-4o');
    expect(found('deepseek-chat')).toBe('deepseek/deepseek-chat');
    expect(found('glm-4.6')).toBe('zai/glm-4.6');
  });

  it('maps BoxAgnts provider ids onto catalogue providers and accepts catalogue ids', () => {
    expect(found('gemini-2.5-pro', 'vertex')).toBe('google-vertex/gemini-2.5-pro');
    expect(found('glm-4.6', 'zhipu')).toBe('zai/glm-4.6');
    expect(found('glm-4.6', 'zhipuai')).toBe('zhipuai/glm-4.6');
    expect(found('qwen-plus', 'qwen')).toBe('alibaba/qwen-plus');
    expect(found('qwen-plus', 'alibaba-cn')).toBe('alibaba-cn/qwen-plus');
    expect(found('kimi-k2.5', 'moonshot')).toBe('moonshotai/kimi-k2.5');
    expect(found('gpt-5', 'azure-openai')).toBe('azure/gpt-5');
  });

  it('stays within a provider that has rows, and searches everywhere for one that has none', () => {
    expect(found('gpt-4o', 'groq')).toBeUndefined();
    expect(found('qwen3:8b', 'ollama')).toBeUndefined();
    expect(found('gpt-oss-120b', 'vllm')).toBe('cerebras/gpt-oss-120b');
    expect(found('gpt-oss-120b', 'made-up-provider')).toBe('cerebras/gpt-oss-120b');
    expect(findModel('gpt-oss-120b', { provider: 'vllm', anyProviderFallback: false })).toBeUndefined();
    expect(found('gpt-4o', 'constructor')).toBe('openai/gpt-4o'); // not read off Object.prototype
    expect(found('no-such-model')).toBeUndefined();
    expect(found('   ')).toBeUndefined();
  });

  it('hands out frozen rows', () => {
    const model = findModel('claude-sonnet-4-5');
    expect(Object.isFrozen(model)).toBe(true);
    expect(Object.isFrozen(model?.price)).toBe(true);
  });
});

describe('listCatalogueModels', () => {
  it('lists a provider’s rows, merging mapped catalogue providers without repeating an id', () => {
    const zhipu = listCatalogueModels('zhipu').map((model) => model.id);
    const zai = listCatalogueModels('zai').map((model) => model.id);
    const zhipuai = listCatalogueModels('zhipuai').map((model) => model.id);
    expect(zhipu).toEqual([...new Set([...zai, ...zhipuai])]);
    expect(zai).toContain('glm-5-turbo');
    expect(zhipuai).not.toContain('glm-5-turbo');
    expect(listCatalogueModels('anthropic').every((model) => model.provider === 'anthropic')).toBe(true);
    expect(listCatalogueModels('volcengine')).toEqual([]);
    expect(listCatalogueModels('made-up-provider')).toEqual([]);
  });

  it('turns rows into ModelInfo for listModels() fallbacks', () => {
    const model = findModel('claude-sonnet-4-5');
    expect(model && toModelInfo(model)).toEqual({
      id: 'claude-sonnet-4-5',
      name: 'Claude Sonnet 4.5 (latest)',
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      createdAt: '2025-09-29',
    });
  });
});

describe('choosing the catalogue', () => {
  afterEach(() => setActiveCatalogue(undefined));

  it('searches a catalogue passed in, or the active one once replaced', () => {
    const small = buildCatalogue(smallModelsDev());
    expect(findModel('claude-test-4-5')).toBeUndefined();
    expect(findModel('claude-test-4-5-20250929', { catalogue: small })?.id).toBe('claude-test-4-5');
    setActiveCatalogue(small);
    expect(getActiveCatalogue()).toBe(small);
    expect(findModel('claude-test-4-5')?.id).toBe('claude-test-4-5');
    expect(findModel('claude-sonnet-4-5')).toBeUndefined();
    setActiveCatalogue(undefined);
    expect(getActiveCatalogue()).toBe(getShippedCatalogue());
    expect(findModel('claude-sonnet-4-5')?.id).toBe('claude-sonnet-4-5');
  });
});
