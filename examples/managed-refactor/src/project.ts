import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Runs git in a folder and returns its standard output. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** The demo project: `fetchData` is to be renamed `loadData` in both files. */
export const PROJECT_FILES: Record<string, string> = {
  'src/api.js': [
    'export async function fetchData(url) {',
    '  const response = await fetch(url);',
    "  if (!response.ok) throw new Error('GET ' + url + ': ' + response.status);",
    '  return response.json();',
    '}',
    '',
  ].join('\n'),
  'src/report.js': [
    "import { fetchData } from './api.js';",
    '',
    'export async function dailyReport(base) {',
    "  const sales = await fetchData(base + '/sales/today');",
    "  return sales.map((sale) => sale.item + ': ' + sale.total).join('\\n');",
    '}',
    '',
  ].join('\n'),
  'README.md': "# shop-reports\n\nFetches the day's sales and prints a report.\n",
};

/** A real git repository in a temp folder holding {@link PROJECT_FILES}, committed once. */
export async function createDemoRepository(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'boxagnts-managed-refactor-'));
  await git(root, 'init', '-q');
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  await git(root, 'add', '-A');
  await git(root, '-c', 'user.name=demo', '-c', 'user.email=demo@localhost', 'commit', '-q', '-m', 'shop-reports');
  return root;
}
