import { runMcpAgent } from './agent.js';

const { outcome, issues } = await runMcpAgent({ print: (line) => process.stdout.write(`${line}\n`) });
process.stdout.write(`\n${outcome.text}\n\n`);
for (const issue of issues) process.stdout.write(`#${issue.id} [${issue.state}] ${issue.title}\n`);
process.stdout.write(`[${outcome.reason}] $${outcome.usage.total.costUsd.toFixed(4)}\n`);
if (outcome.reason !== 'end_turn') process.exitCode = 1;
