import { type MockServer, startMockServer } from '@boxagnts/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LlmRequest, ThinkingConfig } from '../index.js';
import { mockBaseURL, streamOnce } from './provider-row.test.helpers.js';
import { amazonBedrockProvider } from './rows/amazon-bedrock.js';
import { anthropicProvider } from './rows/anthropic.js';
import { providerFromRow, requestBody } from './rows/row-contract.test.helpers.js';
import { siliconflowProvider } from './rows/siliconflow.js';

// Every thinking setting, on each row that maps thinking per vendor rules, produces a body the vendor
// documents as valid:
// - Anthropic: adaptive thinking only on Claude 4.6 and later; `enabled` budgets rejected by Opus 4.7
//   and later; budget_tokens >= 1024 and < max_tokens.
//   @see https://docs.claude.com/en/docs/build-with-claude/adaptive-thinking
//   @see https://docs.claude.com/en/docs/build-with-claude/extended-thinking
// - Bedrock (Claude): the same forms in additionalModelRequestFields; budget < inferenceConfig.maxTokens.
//   @see https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html
// - SiliconFlow: thinking_budget within 128-32768.

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ script: { steps: [{ text: 'ok' }], repeatLast: true } });
});

afterAll(async () => {
  await mock.close();
});

beforeEach(() => {
  mock.clearRequests();
});

const settings: ThinkingConfig[] = [
  { type: 'effort', effort: 'low' },
  { type: 'effort', effort: 'high' },
  { type: 'enabled', budgetTokens: 100 },
  { type: 'enabled', budgetTokens: 8_000 },
  { type: 'enabled', budgetTokens: 40_000 },
];

const claudeModels: Array<{ model: string; style: 'budget' | 'adaptive' | 'adaptive-only' }> = [
  { model: 'claude-3-7-sonnet-20250219', style: 'budget' },
  { model: 'claude-sonnet-4-5', style: 'budget' },
  { model: 'claude-sonnet-4-5-20250929', style: 'budget' },
  { model: 'claude-opus-4-5', style: 'budget' },
  { model: 'claude-haiku-4-5', style: 'budget' },
  { model: 'claude-opus-4-1', style: 'budget' },
  { model: 'claude-sonnet-4-6', style: 'adaptive' },
  { model: 'claude-opus-4-6', style: 'adaptive' },
  { model: 'claude-opus-4-7', style: 'adaptive-only' },
];

/** The documented rules for one Claude body's thinking. */
function expectValidClaudeThinking(
  style: 'budget' | 'adaptive' | 'adaptive-only',
  setting: ThinkingConfig,
  thinking: Record<string, unknown> | undefined,
  outputConfig: Record<string, unknown> | undefined,
  maxTokens: number,
): void {
  expect(thinking).toBeDefined();
  if (thinking?.type === 'adaptive') {
    expect(style, 'adaptive thinking is rejected before Claude 4.6').not.toBe('budget');
    expect(['low', 'medium', 'high']).toContain(outputConfig?.effort);
    return;
  }
  expect(thinking?.type).toBe('enabled');
  expect(style, 'Opus 4.7 and later reject enabled budgets').not.toBe('adaptive-only');
  const budget = thinking?.budget_tokens as number;
  expect(budget).toBeGreaterThanOrEqual(1_024);
  expect(budget).toBeLessThan(maxTokens);
  if (style === 'adaptive') expect(setting.type, 'an effort goes adaptive on 4.6').toBe('enabled');
}

function request(model: string, thinking: ThinkingConfig, maxOutputTokens = 4_000): LlmRequest {
  return { model, maxOutputTokens, thinking, messages: [{ role: 'user', content: 'Hi' }] };
}

describe('anthropic row: thinking per model', () => {
  for (const { model, style } of claudeModels) {
    it.each(settings)(`${model} (${style}) %o`, async (setting) => {
      const provider = providerFromRow(anthropicProvider, { baseURL: mockBaseURL(mock, anthropicProvider.baseURL) });
      await streamOnce(provider, request(model, setting));
      const body = requestBody(mock);
      expectValidClaudeThinking(
        style,
        setting,
        body.thinking as Record<string, unknown>,
        body.output_config as Record<string, unknown> | undefined,
        body.max_tokens as number,
      );
    });
  }
});

describe('amazon-bedrock row: thinking per model', () => {
  const bedrockModels = [
    { model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', style: 'budget' as const },
    { model: 'anthropic.claude-3-7-sonnet-20250219-v1:0', style: 'budget' as const },
    { model: 'global.anthropic.claude-opus-4-6-v1', style: 'adaptive' as const },
    { model: 'us.anthropic.claude-opus-4-7', style: 'adaptive-only' as const },
  ];
  for (const { model, style } of bedrockModels) {
    it.each(settings)(`${model} (${style}) %o, with and without maxOutputTokens`, async (setting) => {
      for (const maxOutputTokens of [4_000, 500, undefined]) {
        mock.clearRequests();
        const provider = providerFromRow(amazonBedrockProvider, { baseURL: mock.url, region: 'us-east-1' });
        const base = request(model, setting);
        await streamOnce(
          provider,
          maxOutputTokens === undefined ? { ...base, maxOutputTokens: undefined } : { ...base, maxOutputTokens },
        );
        const body = requestBody(mock);
        const fields = body.additionalModelRequestFields as Record<string, unknown>;
        const maxTokens = (body.inferenceConfig as { maxTokens?: number } | undefined)?.maxTokens;
        if ((fields.thinking as { type?: string }).type === 'enabled') expect(maxTokens).toBeDefined();
        expectValidClaudeThinking(
          style,
          setting,
          fields.thinking as Record<string, unknown>,
          fields.output_config as Record<string, unknown> | undefined,
          maxTokens ?? Number.POSITIVE_INFINITY,
        );
      }
    });
  }
});

describe('siliconflow row: thinking_budget within 128-32768', () => {
  it.each([
    [50, 128],
    [4_096, 4_096],
    [100_000, 32_768],
  ])('budget %i is sent as %i', async (budgetTokens, sent) => {
    const provider = providerFromRow(siliconflowProvider, { baseURL: mockBaseURL(mock, siliconflowProvider.baseURL) });
    await streamOnce(provider, request('Qwen/Qwen3-8B', { type: 'enabled', budgetTokens }));
    expect(requestBody(mock)).toMatchObject({ enable_thinking: true, thinking_budget: sent });
  });
});
