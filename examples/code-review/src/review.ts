import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { type QueryEvent, type QueryOutcome, runQuery } from '@boxagnts/query';
import { startMockServer } from '@boxagnts/testkit';
import { builtinSkillsFolder } from '@boxagnts/tools';
import { createToolSet, nativeToolSource } from '@boxagnts/tools-manager';
import { createSandboxToolSource } from '@boxagnts/wasm-tools';
import { codeReviewScript, LEAD_MODEL, REVIEWER_MODEL } from './script.js';

/** The folder reviewed when none is given: three small Python files with planted defects. */
export const SAMPLE_FOLDER = fileURLToPath(new URL('../sample', import.meta.url));
/** The built-in skills shipped with @boxagnts/tools (the code-review skill among them). */
export const SKILLS_FOLDER = builtinSkillsFolder();

const CODE_FILE = /\.(py|ts|tsx|js|jsx|mjs|go|rs|java|rb|php|cs|c|cc|cpp|h|swift|kt)$/;
const MAX_FILES = 6;

/** One read-only reviewer as the run saw it. */
export interface ReviewerRow {
  id: string;
  description: string;
  /** Files its `read` calls opened. */
  filesRead: string[];
  calls: number;
  costUsd: number;
}

export interface CodeReviewResult {
  outcome: QueryOutcome;
  /** The whole Markdown report: the model's verdict and table, then the reviewers table. */
  report: string;
  reviewers: ReviewerRow[];
  /** Every event of the run in order (sub-agents' events included, tagged). */
  events: QueryEvent[];
  live: boolean;
}

export interface CodeReviewOptions {
  /** The folder to review (default: the bundled sample). */
  folder?: string;
  /** A real model (ANTHROPIC_API_KEY) instead of the testkit; default: whether the key is set. */
  live?: boolean;
  /** Receives progress lines as the run streams. */
  print?: (line: string) => void;
}

/** The code files of a folder (relative paths, sorted), at most {@link MAX_FILES}. */
export async function codeFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && CODE_FILE.test(entry.name))
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split(/[\\/]/).some((part) => part.startsWith('.') || part === 'node_modules'))
    .sort()
    .slice(0, MAX_FILES);
}

const TASK =
  'Review the code in this folder. Load the code-review skill with the skill tool first and follow it. ' +
  'List the files with glob, then start one reviewer sub-agent per file (the agent tool with run_in_background: true, ' +
  `at most ${MAX_FILES}; each prompt names its file and asks for findings as \`file:line | severity | finding | suggested fix\`), ` +
  'wait for every one with agent_status, and answer with a one-line verdict and one Markdown table with the columns ' +
  '| where | severity | finding | suggested fix |. Do not edit anything.';

function describe(event: QueryEvent): string | undefined {
  if (event.type === 'tool-start') return `-> ${event.name} ${JSON.stringify(event.input).slice(0, 120)}`;
  if (event.type === 'sub-agent' && event.event.type === 'tool-start') {
    return `   [${event.agentId}] -> ${event.event.name} ${JSON.stringify(event.event.input)}`;
  }
  if (event.type === 'sub-agent' && event.event.type === 'turn-end' && event.event.finishReason.unified === 'stop') {
    return `   [${event.agentId}] done`;
  }
  return undefined;
}

/** The reviewers table, made by the host from what the run recorded (not written by the model). */
function reviewerRows(events: readonly QueryEvent[], outcome: QueryOutcome): ReviewerRow[] {
  const rows = new Map<string, ReviewerRow>();
  const descriptions = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'tool-end' && event.name === 'agent') {
      const id = (event.result.metadata as { id?: string } | undefined)?.id;
      const input = event.input as { description?: string };
      if (id !== undefined) descriptions.set(id, input.description ?? '');
    }
    if (event.type !== 'sub-agent') continue;
    const row = rows.get(event.agentId) ?? { id: event.agentId, description: '', filesRead: [], calls: 0, costUsd: 0 };
    rows.set(event.agentId, row);
    const inner = event.event;
    if (inner.type === 'tool-start' && inner.name === 'read') {
      row.filesRead.push(String((inner.input as { file_path?: unknown }).file_path));
    }
  }
  for (const row of rows.values()) {
    row.description = descriptions.get(row.id) ?? '';
    const usage = outcome.usage.bySubAgent[row.id];
    row.calls = usage?.calls ?? 0;
    row.costUsd = usage?.costUsd ?? 0;
  }
  return [...rows.values()];
}

function reviewersTable(rows: readonly ReviewerRow[]): string {
  const lines = ['| reviewer | task | files read | model calls | cost (USD) |', '| --- | --- | --- | ---: | ---: |'];
  for (const row of rows) {
    lines.push(
      `| ${row.id} | ${row.description} | ${row.filesRead.join(', ') || '-'} | ${row.calls} | ${row.costUsd.toFixed(4)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * Reviews a folder: the lead agent loads the code-review skill, starts one read-only reviewer
 * sub-agent per file in the background (they run in parallel, on a cheaper model), waits for them,
 * and writes a Markdown table of findings. The agents get only read-only tools (`read`, `glob`,
 * `grep`, `skill`) plus `agent`/`agent_status` for the lead, so nothing in the folder can change.
 */
export async function runCodeReview(options: CodeReviewOptions = {}): Promise<CodeReviewResult> {
  const folder = options.folder ?? SAMPLE_FOLDER;
  const print = options.print ?? (() => undefined);
  const live = options.live ?? process.env.ANTHROPIC_API_KEY !== undefined;
  const files = await codeFiles(folder);
  if (files.length === 0) throw new Error(`No code files in ${folder}: give a folder that holds some source files.`);
  const mock = live ? undefined : await startMockServer({ script: codeReviewScript(files) });
  const provider = createAnthropicMessagesProvider(mock ? { baseURL: mock.url, apiKey: 'offline-not-secret' } : {});
  print(live ? `model: Claude (${LEAD_MODEL}, reviewers on ${REVIEWER_MODEL})` : `model: the testkit at ${mock?.url}`);
  print(`folder: ${folder} (${files.length} files)`);
  const sandbox = createSandboxToolSource({ bash: false, jsExec: false, webFetch: false });
  const tools = await createToolSet({
    sources: [nativeToolSource({ skills: { folders: [SKILLS_FOLDER] } }), sandbox],
    // Read-only tools only, plus the lead's sub-agent tools; reviewers get every tool but those two.
    allow: ['skill', 'read', 'glob', 'grep', 'agent', 'agent_status'],
    permissions: { rules: { allow: ['agent'] } },
  });
  try {
    const events: QueryEvent[] = [];
    const run = runQuery({
      provider,
      messages: [{ role: 'user', content: TASK }],
      tools: () => tools.tools(),
      toolContext: { root: folder, sessionId: 'code-review' },
      config: { model: LEAD_MODEL, maxTurns: 12, budgetUsd: 2, maxOutputTokens: 4096 },
      subAgents: { model: REVIEWER_MODEL, maxConcurrent: 4, defaultMaxTurns: 8, budgetUsd: 0.25 },
    });
    let outcome: QueryOutcome;
    for (;;) {
      const next = await run.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      events.push(next.value);
      const line = describe(next.value);
      if (line !== undefined) print(line);
    }
    const reviewers = reviewerRows(events, outcome);
    const report = `${outcome.text.trim()}\n\n### Reviewers\n\n${reviewersTable(reviewers)}\n`;
    return { outcome, report, reviewers, events, live };
  } finally {
    await tools.close();
    await mock?.close();
  }
}
