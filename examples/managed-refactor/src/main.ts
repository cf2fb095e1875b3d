import { rm } from 'node:fs/promises';
import { createDemoRepository } from './project.js';
import { removePatches, runManagedRefactor } from './refactor.js';

// pnpm start [--keep]: refactors a demo repository made in a temp folder, then deletes it (unless --keep).
const keep = process.argv.includes('--keep');
const repository = await createDemoRepository();
process.stdout.write(`repository: ${repository}\n`);
try {
  const result = await runManagedRefactor({ repository, print: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`\n${result.outcome.text}\n\n`);
  for (const patch of result.patches) process.stdout.write(`patch of ${patch.agentId}: ${patch.patch}\n`);
  process.stdout.write(`\n--- git diff --cached after applying them ---\n${result.appliedDiff}`);
  process.stdout.write(`[${result.outcome.reason}] $${result.outcome.usage.total.costUsd.toFixed(4)} in all\n`);
  await removePatches(result.patches);
  if (result.outcome.reason !== 'end_turn' || result.patches.length === 0) process.exitCode = 1;
} finally {
  if (!keep) await rm(repository, { recursive: true, force: true });
}
