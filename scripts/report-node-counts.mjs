#!/usr/bin/env node
// Prints the test counts of each Node major, then the line CI reads: `N passed, N failed, N skipped` over all.
//
//   node scripts/report-node-counts.mjs 'node 20=.vitest-report.json' \
//     'node 22=.node-matrix/node-22/.vitest-report.json' 'node 24 demo=status:0'
//
// Each argument is `<label>=<vitest JSON report>` or `<label>=status:<exit code>` (a check that is not a
// vitest run, such as the demo, counted as one test). Counting follows scripts/report-counts.mjs: a file
// that fails to load counts as one failure, and a missing or unreadable report counts as one failure.
// Exits 1 when anything failed, 2 on a malformed argument.
import { readFileSync } from 'node:fs';

function usage(message) {
  process.stderr.write(
    `report-node-counts: ${message}\n` +
      "usage: node scripts/report-node-counts.mjs '<label>=<report.json>' | '<label>=status:<exit code>' ...\n",
  );
  process.exit(2);
}

function countReport(path) {
  let report;
  try {
    report = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    process.stderr.write(`report-node-counts: cannot read the vitest JSON report ${path}: ${error.message}\n`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  if (report === null || typeof report !== 'object' || Array.isArray(report)) {
    process.stderr.write(`report-node-counts: ${path} is not a vitest JSON report (expected an object)\n`);
    return { passed: 0, failed: 1, skipped: 0 };
  }
  const number = (value) => (Number.isSafeInteger(value) && value >= 0 ? value : 0);
  const suites = Array.isArray(report.testResults) ? report.testResults : [];
  const brokenSuites = suites.filter(
    (suite) => suite?.status === 'failed' && (suite.assertionResults ?? []).length === 0,
  ).length;
  return {
    passed: number(report.numPassedTests),
    failed: number(report.numFailedTests) + brokenSuites,
    // vitest's JSON report names skipped tests `pending` and `it.todo` ones `todo`: both count as skipped.
    skipped: number(report.numPendingTests) + number(report.numTodoTests),
  };
}

function countStatus(label, code) {
  if (!/^\d{1,3}$/.test(code)) usage(`'${label}=status:${code}': the exit code must be a number from 0 to 255`);
  return Number(code) === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };
}

const format = (counts) => `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;

const entries = process.argv.slice(2);
if (entries.length === 0) usage('give at least one report');
const total = { passed: 0, failed: 0, skipped: 0 };
for (const entry of entries) {
  const separator = entry.indexOf('=');
  if (separator <= 0 || separator === entry.length - 1) usage(`'${entry}' is not of the form <label>=<source>`);
  const label = entry.slice(0, separator);
  const source = entry.slice(separator + 1);
  const counts = source.startsWith('status:') ? countStatus(label, source.slice(7)) : countReport(source);
  process.stdout.write(`${label}: ${format(counts)}\n`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
process.stdout.write(`${format(total)}\n`);
process.exit(total.failed > 0 ? 1 : 0);
