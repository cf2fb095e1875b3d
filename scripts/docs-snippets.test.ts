// Keeps the code in the docs true: every ```ts block of the root README and of docs/ is a whole
// program, type-checked against the packages' sources; blocks marked
// `<!-- doc-test: run, prints `text` -->` are also run (offline, on the testkit, in this process so
// the packages load once) and must finish and print every `text` the marker names.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const exec = promisify(execFile);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One fenced ```ts block of a Markdown file. */
interface Snippet {
  /** Where it is, for messages: `docs/getting-started.md:42`. */
  where: string;
  /** The file name it is checked under. */
  file: string;
  code: string;
  /** From `<!-- doc-test: run, prints `...` -->` on the line before the fence. */
  run?: { prints: string[] };
}

function markdownFiles(): string[] {
  const files = [join(repo, 'README.md')];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(repo, 'docs'));
  return files;
}

/** The ```ts blocks of a Markdown text, with the line each starts on. */
function extractSnippets(markdown: string, name: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^```ts\s*$/.test(lines[index] as string)) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !/^```\s*$/.test(lines[index] as string); index++)
      body.push(lines[index] as string);
    let marker = start - 1;
    while (marker >= 0 && (lines[marker] as string).trim() === '') marker--;
    const runMarker = /^<!-- doc-test: run((?:, prints `[^`]*`)*) -->$/.exec((lines[marker] ?? '').trim());
    const slug = name.replace(/[^a-zA-Z0-9]+/g, '-').replace(/^-|-md$/g, '');
    const snippet: Snippet = {
      where: `${name}:${start + 1}`,
      file: `${slug}-${start + 1}.ts`,
      code: `${body.join('\n')}\n`,
    };
    if (runMarker)
      snippet.run = { prints: [...(runMarker[1] ?? '').matchAll(/prints `([^`]*)`/g)].map((m) => m[1] as string) };
    snippets.push(snippet);
  }
  return snippets;
}

const snippets = markdownFiles().flatMap((path) => extractSnippets(readFileSync(path, 'utf8'), relative(repo, path)));

/** A folder of the repository's node_modules holding `name` (a package's own or an example's). */
function installedFolder(name: string): string | undefined {
  for (const group of ['packages', 'examples']) {
    for (const entry of readdirSync(join(repo, group))) {
      const candidate = join(repo, group, entry, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
  }
  const root = join(repo, 'node_modules', name);
  return existsSync(join(root, 'package.json')) ? root : undefined;
}

/** The bare package names the snippets import. */
function importedPackages(): Set<string> {
  const names = new Set<string>();
  for (const { code } of snippets) {
    for (const match of code.matchAll(/from '([^']+)'/g)) {
      const specifier = match[1] as string;
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      names.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string));
    }
  }
  return names;
}

let folder: string;
const CANARY = 'canary-must-fail.ts';
/** The type check, started as soon as the snippets are written so it runs while they run. */
let typeCheck: Promise<string>;

beforeAll(async () => {
  // A scratch app: node_modules links to the workspace packages (resolved to their sources through the
  // `@boxagnts/source` condition, so no build is needed) and to the third-party packages the snippets use.
  folder = await mkdtemp(join(tmpdir(), 'boxagnts-doc-snippets-'));
  await mkdir(join(folder, 'node_modules', '@boxagnts'), { recursive: true });
  await mkdir(join(folder, 'node_modules', '@types'), { recursive: true });
  await symlink(join(repo, 'node_modules', '@types', 'node'), join(folder, 'node_modules', '@types', 'node'));
  for (const name of importedPackages()) {
    const target = name.startsWith('@boxagnts/')
      ? join(repo, 'packages', name.slice('@boxagnts/'.length))
      : installedFolder(name);
    if (target === undefined || !existsSync(target))
      throw new Error(`A doc snippet imports ${name}, which no package of the repository installs.`);
    await mkdir(dirname(join(folder, 'node_modules', name)), { recursive: true });
    await symlink(target, join(folder, 'node_modules', name));
  }
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'doc-snippets', private: true, type: 'module' }),
  );
  const compilerOptions = {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    customConditions: ['@boxagnts/source'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
  };
  await writeFile(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2));
  for (const snippet of snippets) await writeFile(join(folder, snippet.file), snippet.code);
  // A file that must fail the check, so a type check that silently checked nothing cannot pass.
  await writeFile(join(folder, CANARY), "export const port: number = '8080';\n");
  const tsc = join(repo, 'node_modules', '.bin', 'tsc');
  typeCheck = exec(tsc, ['-p', '.', '--pretty', 'false'], { cwd: folder }).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('code in the docs', () => {
  it('finds the snippets of the root README and docs/', () => {
    expect(snippets.some((snippet) => snippet.where.startsWith('README.md:'))).toBe(true);
    expect(snippets.some((snippet) => snippet.where.startsWith('docs/getting-started.md:'))).toBe(true);
    expect(snippets.filter((snippet) => snippet.run).length).toBeGreaterThan(1);
  });

  for (const snippet of snippets.filter((candidate) => candidate.run)) {
    it(`runs ${snippet.where}`, { timeout: 60_000 }, async () => {
      const key = process.env.ANTHROPIC_API_KEY;
      delete process.env.ANTHROPIC_API_KEY; // offline, whatever the machine has
      let printed = '';
      const log = vi.spyOn(console, 'log').mockImplementation((...values: unknown[]) => {
        printed += `${values.map(String).join(' ')}\n`;
      });
      const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        printed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
        return true;
      });
      try {
        await import(join(folder, snippet.file));
      } finally {
        log.mockRestore();
        write.mockRestore();
        if (key !== undefined) process.env.ANTHROPIC_API_KEY = key;
      }
      for (const text of snippet.run?.prints ?? []) expect(printed).toContain(text);
    });
  }

  it('type-checks every ts snippet as a whole program', { timeout: 120_000 }, async () => {
    const result = await typeCheck;
    expect(result, 'the canary file has a type error the check must report').toContain(`${CANARY}(1,14): error TS2322`);
    // Only errors in the snippets count: a package's own errors are its typecheck's to report.
    const byFile = new Map(snippets.map((snippet) => [snippet.file, snippet.where]));
    const errors = result
      .split('\n')
      .filter((line) => byFile.has(line.split('(')[0] as string))
      .map((line) => `${byFile.get(line.split('(')[0] as string)} (${line})`);
    expect(errors).toEqual([]);
  });
});
