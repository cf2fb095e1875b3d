#!/usr/bin/env node
// Prints `N passed, N failed[, N skipped]` from vitest's JSON report (the line CI reads).
import { readFileSync } from 'node:fs';

const path = process.argv[2] ?? '.vitest-report.json';
let report;
try {
  report = JSON.parse(readFileSync(path, 'utf8'));
} catch (error) {
  process.stderr.write(`report-counts: cannot read the vitest JSON report ${path}: ${error.message}\n`);
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// A file that fails to load has no test results of its own; count it as one failure.
const brokenSuites = (report.testResults ?? []).filter(
  (suite) => suite.status === 'failed' && (suite.assertionResults ?? []).length === 0,
).length;
process.stdout.write(`${passed} passed, ${failed + brokenSuites} failed, ${skipped} skipped\n`);
