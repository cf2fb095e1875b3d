// Measures importBoxAgntsWorkspace against a baseline doing the store work alone (importJsonl of the
// same converted sessions into a fresh store), in the same run, and prints the ratio.
// Run: node --conditions=@boxagnts/source --import tsx packages/workspace/src/import/import.test-bench.ts [sessions] [messages]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../store/open-store.js';
import { writeBoxAgntsWorkspace } from './boxagnts-fixture.test-support.js';
import { convertBoxAgntsSession } from './convert-session.js';
import { importBoxAgntsWorkspace } from './import-workspace.js';
import { sessionJsonl } from './session-import-text.js';

const sessionCount = Number(process.argv[2] ?? 300);
const messageCount = Number(process.argv[3] ?? 20);

function session(index: number) {
  const messages = [];
  for (let turn = 0; turn < messageCount / 2; turn++) {
    messages.push({
      role: 'user',
      content: `Question ${turn} of session ${index}: where is the config of service ${turn}? `.repeat(3),
    });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Looking at service ${turn}.` },
        {
          type: 'tool_use',
          id: `toolu_${index}_${turn}`,
          name: 'read',
          input: { file_path: `svc${turn}/config.toml` },
        },
      ],
      cost: {
        input_tokens: 100,
        output_tokens: 20,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cost_usd: 0.001,
      },
    });
  }
  const id = `bench-${String(index).padStart(5, '0')}`;
  return {
    id,
    created_at: '2026-05-01T08:00:00Z',
    updated_at: '2026-05-01T09:00:00Z',
    model: 'anthropic/claude-sonnet-4-6',
    title: id,
    messages,
  };
}

const sessions = Array.from({ length: sessionCount }, (_, index) => session(index));
const fixture = await writeBoxAgntsWorkspace({ sessions });
const baselineDir = await mkdtemp(join(tmpdir(), 'boxagnts-import-bench-'));
try {
  // Baseline: what the store alone costs for the same sessions (convert, then one importJsonl each).
  const start = performance.now();
  const store = await openStore({ kind: 'sqlite', path: join(baselineDir, 'baseline.db') });
  for (const value of sessions) {
    const converted = convertBoxAgntsSession(value, value.id);
    if (converted.ok) await store.sessions.importJsonl(sessionJsonl(converted.value));
  }
  await store.close();
  const baseline = performance.now() - start;
  await writeFile(join(baselineDir, 'done'), '');

  const importStart = performance.now();
  const report = await importBoxAgntsWorkspace(fixture.dir, { env: { GITHUB_TOKEN: 'x', TENANT: 't' } });
  const imported = performance.now() - importStart;
  const againStart = performance.now();
  await importBoxAgntsWorkspace(fixture.dir, { env: { GITHUB_TOKEN: 'x', TENANT: 't' } });
  const again = performance.now() - againStart;
  if (!report.ok) throw new Error(`import failed: ${JSON.stringify(report.failed)}`);
  console.log(`${sessionCount} sessions x ${messageCount} messages`);
  console.log(`| baseline (convert + importJsonl into a fresh store) | ${baseline.toFixed(0)} ms | 1.00x |`);
  console.log(
    `| importBoxAgntsWorkspace (everything, from the files) | ${imported.toFixed(0)} ms | ${(imported / baseline).toFixed(2)}x |`,
  );
  console.log(`| second import (all unchanged) | ${again.toFixed(0)} ms | ${(again / baseline).toFixed(2)}x |`);
} finally {
  await fixture.remove();
  await rm(baselineDir, { recursive: true, force: true });
}
