// Measures what every request of a default run carries before any conversation: the layered system
// prompt and the JSON Schemas of the tools. Run: pnpm --filter @boxagnts/example-config-editor prompt-size
import { buildSystemPrompt, CHARS_PER_TOKEN } from '@boxagnts/query';
import { toToolDefinition } from '@boxagnts/tools';
import { createToolSet, nativeToolSource } from '@boxagnts/tools-manager';
import { createSandboxToolSource } from '@boxagnts/wasm-tools';

const sandbox = createSandboxToolSource();
const tools = await createToolSet({ sources: [nativeToolSource(), sandbox] });
const list = tools.tools();
const system = buildSystemPrompt({
  toolNames: list.map((tool) => tool.name),
  workingDirectory: '/home/user/project',
  date: '2026-11-30',
});
const systemChars = system.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
const rows = list.map((tool) => {
  const definition = toToolDefinition(tool);
  return { name: tool.name, chars: JSON.stringify(definition).length };
});
const toolChars = rows.reduce((sum, row) => sum + row.chars, 0);
const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);
process.stdout.write(`system prompt: ${systemChars} characters, ~${tokens(systemChars)} tokens\n`);
for (const row of rows)
  process.stdout.write(
    `  tool ${row.name.padEnd(20)} ${String(row.chars).padStart(6)} chars ~${tokens(row.chars)} tokens\n`,
  );
process.stdout.write(`tool schemas (${rows.length} tools): ${toolChars} characters, ~${tokens(toolChars)} tokens\n`);
process.stdout.write(`total: ~${tokens(systemChars + toolChars)} tokens (estimate: characters / ${CHARS_PER_TOKEN})\n`);
await tools.close();
