#!/usr/bin/env node
// Every protocol adapter folder of @boxagnts/api (packages/api/src/adapters/<folder>/) has the same file
// set, named one way: `<prefix>-<role>.ts` for the nine roles below, each with its `<prefix>-<role>.test.ts`
// (the provider role may instead be covered by the folder's conformance suite, `<prefix>.conformance.test.ts`,
// which every folder has), and every other file of the folder named `<prefix>-…` or `<prefix>.…`. The prefix
// is the folder name with a trailing protocol word dropped (ADAPTER_PREFIXES below lists the exceptions).
//
//   node scripts/check-adapter-files.mjs      # exits 1 and names what is missing or misnamed
//
// Run by `pnpm lint`.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nine roles of an adapter folder, and what each file holds. */
export const ADAPTER_ROLES = {
  provider: 'the factory: request and stream through the transport (the LlmProvider)',
  request: 'the request body built from an LlmRequest',
  stream: 'wire stream events mapped to stream events',
  messages: 'messages converted to the wire format',
  tools: 'tool definitions and tool choice prepared for the wire',
  'finish-reason': "the vendor's stop reason mapped to FinishReason",
  usage: "the vendor's usage mapped to Usage",
  errors: "the vendor's error wording mapped to LlmError reasons",
  wire: 'wire types (zod schemas of what the vendor sends)',
};

/** Folder -> file prefix where the prefix is not the folder name itself. */
export const ADAPTER_PREFIXES = {
  'anthropic-messages': 'anthropic',
  'bedrock-converse': 'bedrock',
  'cohere-v2': 'cohere',
};

/** The prefix of an adapter folder's files. */
export function adapterPrefix(folder) {
  return ADAPTER_PREFIXES[folder] ?? folder;
}

/** Problems of one adapter folder, given its file names; an empty list when it follows the scheme. */
export function adapterFolderProblems(folder, files) {
  const prefix = adapterPrefix(folder);
  const names = new Set(files);
  const problems = [];
  for (const role of Object.keys(ADAPTER_ROLES)) {
    const source = `${prefix}-${role}.ts`;
    if (!names.has(source)) problems.push(`${folder}: missing ${source} (${ADAPTER_ROLES[role]})`);
    const test = `${prefix}-${role}.test.ts`;
    const covered = names.has(test) || (role === 'provider' && names.has(`${prefix}.conformance.test.ts`));
    if (names.has(source) && !covered) problems.push(`${folder}: missing ${test}`);
  }
  if (!names.has(`${prefix}.conformance.test.ts`)) {
    problems.push(`${folder}: missing ${prefix}.conformance.test.ts (the shared adapter contract suite)`);
  }
  for (const file of files) {
    if (!file.endsWith('.ts')) continue;
    if (!file.startsWith(`${prefix}-`) && !file.startsWith(`${prefix}.`)) {
      problems.push(
        `${folder}: ${file} does not start with "${prefix}-" (name every file of the folder <prefix>-<what>.ts)`,
      );
    }
  }
  return problems;
}

/** Problems of every adapter folder under `adaptersDir`. */
export function checkAdapterFolders(adaptersDir) {
  const problems = [];
  for (const folder of readdirSync(adaptersDir).sort()) {
    const dir = join(adaptersDir, folder);
    if (!statSync(dir).isDirectory()) continue;
    problems.push(...adapterFolderProblems(folder, readdirSync(dir)));
  }
  return problems;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkAdapterFolders(join(root, 'packages', 'api', 'src', 'adapters'));
  for (const problem of problems) process.stderr.write(`check-adapter-files: ${problem}\n`);
  if (problems.length > 0) process.exit(1);
  process.stdout.write('check-adapter-files: every adapter folder has the nine role files\n');
}
