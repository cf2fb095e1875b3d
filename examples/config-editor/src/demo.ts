import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropicMessagesProvider, type LlmProvider } from '@boxagnts/api';
import { type QueryEvent, type QueryOutcome, runQuery } from '@boxagnts/query';
import { startMockServer } from '@boxagnts/testkit';
import { createToolSet } from '@boxagnts/tools-manager';
import { createSandboxToolSource } from '@boxagnts/wasm-tools';
import { configEditorScript } from './script.js';

/** The starting file of the demo. */
export const CONFIG_TOML = `# Demo service\n[server]\nhost = "127.0.0.1"\nport = 8000\n\n[log]\nlevel = "info"\n`;

/** What the demo did. */
export interface DemoResult {
  outcome: QueryOutcome;
  /** config.toml as the run left it. */
  config: string;
  /** Whether a real model (ANTHROPIC_API_KEY) played the model instead of the testkit. */
  live: boolean;
}

function describe(event: QueryEvent): string | undefined {
  switch (event.type) {
    case 'turn-start':
      return `\n[turn ${event.turn}] ${event.model}`;
    case 'tool-start':
      return `  -> ${event.name} ${JSON.stringify(event.input)}`;
    case 'tool-end': {
      const text = event.result.content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('\n');
      const lines = text.split('\n').map((line) => `     ${line}`);
      return `  <- ${event.name}${event.result.isError ? ' (error)' : ''} in ${event.durationMs.toFixed(0)} ms\n${lines.join('\n')}`;
    }
    case 'usage':
      return `  usage: ${event.usage.input.total} in (${event.usage.input.cacheRead} cached), ${event.usage.output.total} out${
        event.costUsd === undefined ? '' : `, $${event.costUsd.toFixed(5)}`
      }`;
    case 'status':
      return `  [${event.kind}] ${event.message}`;
    case 'done':
      return `\n[done] ${event.outcome.reason} after ${event.outcome.turns} model calls, $${event.outcome.usage.total.costUsd.toFixed(5)}`;
    default:
      return undefined;
  }
}

/**
 * "Read config.toml and change port to 8080", end to end: a temporary workspace with a real
 * config.toml, the real sandboxed read and edit tools (a WebAssembly component) behind a tool set
 * whose permission rules allow editing only that file, and the model played by the testkit over
 * the Anthropic protocol — or by Claude itself when ANTHROPIC_API_KEY is set.
 */
export async function runConfigEditorDemo(
  print: (text: string, inline?: boolean) => void,
  options: { live?: boolean } = {},
): Promise<DemoResult> {
  const live = options.live ?? process.env.ANTHROPIC_API_KEY !== undefined;
  const root = await mkdtemp(join(tmpdir(), 'boxagnts-config-editor-'));
  const mock = live ? undefined : await startMockServer({ script: configEditorScript() });
  const sandbox = createSandboxToolSource({ bash: false, jsExec: false, webFetch: false });
  try {
    await writeFile(join(root, 'config.toml'), CONFIG_TOML);
    const provider: LlmProvider = createAnthropicMessagesProvider(
      mock ? { baseURL: mock.url, apiKey: 'demo-key-not-secret' } : {},
    );
    print(
      live
        ? 'model: Claude (ANTHROPIC_API_KEY is set)'
        : `model: the testkit mock at ${mock?.url} (Anthropic protocol)`,
    );
    print(`workspace: ${root}\n--- config.toml before ---\n${CONFIG_TOML}---`);
    const tools = await createToolSet({
      sources: [sandbox],
      allow: ['read', 'edit'],
      permissions: { rules: { allow: ['edit(config.toml)'] } },
    });
    const run = runQuery({
      provider,
      messages: [{ role: 'user', content: 'Read config.toml and change port to 8080.' }],
      tools: () => tools.tools(),
      toolContext: { root, sessionId: 'config-editor-demo' },
      config: { model: 'claude-sonnet-4-6', maxTurns: 8, budgetUsd: 0.5, maxOutputTokens: 1024 },
    });
    let outcome: QueryOutcome | undefined;
    let streaming = false;
    for (;;) {
      const next = await run.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      const event = next.value;
      if (event.type === 'text-delta') {
        if (!streaming) print('  ', true);
        streaming = true;
        print(event.delta, true);
        continue;
      }
      if (streaming) print('\n', true);
      streaming = false;
      const line = describe(event);
      if (line !== undefined) print(line);
    }
    await tools.close();
    const config = await readFile(join(root, 'config.toml'), 'utf8');
    print(`--- config.toml after ---\n${config}---`);
    return { outcome, config, live };
  } finally {
    await sandbox.close?.();
    await mock?.close();
    await rm(root, { recursive: true, force: true });
  }
}
