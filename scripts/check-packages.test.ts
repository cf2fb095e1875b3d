import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without declarations
import { entryPoints, publishedPackages, tarballProblems } from './check-packages.mjs';

// The whole check (build, pack, npm install, require/import, TypeScript consumer) runs in CI from .ci/run;
// these tests cover its verdict on a tarball's contents, on unpacked fixtures.
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const LICENSE = 'Apache License\nVersion 2.0, January 2004\n';
const goodManifest = {
  name: '@boxagnts/tools',
  version: '0.0.0',
  repository: { type: 'git', url: 'git+https://github.com/boxagnts/boxagnts-ts.git', directory: 'packages/tools' },
  homepage: 'https://github.com/boxagnts/boxagnts-ts/tree/main/packages/tools#readme',
  bugs: { url: 'https://github.com/boxagnts/boxagnts-ts/issues' },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  exports: {
    '.': {
      '@boxagnts/source': './src/index.ts',
      types: './dist/index.d.ts',
      import: './dist/index.js',
      default: './dist/index.js',
    },
    './package.json': './package.json',
  },
};

function unpacked(files: Record<string, string>, manifest: object = goodManifest): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-packages-'));
  roots.push(dir);
  const all = {
    'package.json': JSON.stringify(manifest),
    LICENSE,
    'README.md':
      '# @boxagnts/tools\n\nSee [the query loop](https://github.com/boxagnts/boxagnts-ts/tree/main/packages/query) and [below](#install).\n',
    'dist/index.js': 'export const x = 1;',
    'dist/index.d.ts': 'export declare const x = 1;',
    'dist/index.js.map': JSON.stringify({ sources: ['../src/index.ts'], sourcesContent: ['export const x = 1;'] }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('tarballProblems', () => {
  it('passes a tarball with the LICENSE, the metadata, a default condition and only shipped files', () => {
    expect(tarballProblems(unpacked({}), LICENSE)).toEqual([]);
  });

  it('fails on exports without a default condition (require() gets ERR_PACKAGE_PATH_NOT_EXPORTED)', () => {
    const manifest = {
      ...goodManifest,
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    };
    expect(tarballProblems(unpacked({}, manifest), LICENSE)).toEqual([
      'exports["."] has no "default" condition last: require() fails',
    ]);
  });

  it('fails on test declarations, test helpers, declaration maps and maps without their sources', () => {
    const problems = tarballProblems(
      unpacked({
        'dist/tool.test.d.ts': '',
        'dist/fs-tools/test-support.d.ts': '',
        'dist/runtime/test-fixtures.d.ts': '',
        'dist/test/context.d.ts': '',
        'dist/index.d.ts.map': '{}',
        'dist/worker.js.map': JSON.stringify({ sources: ['../src/worker.ts'] }),
      }),
      LICENSE,
    );
    expect(problems.sort()).toEqual([
      'dist/worker.js.map points at sources it does not carry: ../src/worker.ts',
      'ships a declaration map: dist/index.d.ts.map',
      'ships a test file: dist/fs-tools/test-support.d.ts',
      'ships a test file: dist/runtime/test-fixtures.d.ts',
      'ships a test file: dist/test/context.d.ts',
      'ships a test file: dist/tool.test.d.ts',
    ]);
  });

  it('fails without the LICENSE, the repository metadata or the files the manifest points at', () => {
    const dir = unpacked(
      {},
      {
        name: 'x',
        main: './dist/main.js',
        exports: { '.': { types: './dist/index.d.ts', default: './dist/gone.js' } },
      },
    );
    rmSync(join(dir, 'LICENSE'));
    expect(tarballProblems(dir, LICENSE).sort()).toEqual([
      './dist/main.js (main, types or bin) is not in the tarball',
      'exports["."].default: ./dist/gone.js is not in the tarball',
      'no LICENSE in the tarball',
      'no bugs url',
      'no homepage',
      'no repository url and directory',
    ]);
    writeFileSync(join(dir, 'LICENSE'), 'MIT License\n');
    expect(tarballProblems(dir, LICENSE)).toContain('LICENSE differs from the repository LICENSE');
  });
});

describe('publishedPackages', () => {
  it('lists the packages of packages/ that are not private', () => {
    const root = mkdtempSync(join(tmpdir(), 'check-packages-root-'));
    roots.push(root);
    for (const [name, manifest] of [
      ['api', { name: '@boxagnts/api' }],
      ['internal', { name: '@boxagnts/internal', private: true }],
    ] as const) {
      mkdirSync(join(root, 'packages', name), { recursive: true });
      writeFileSync(join(root, 'packages', name, 'package.json'), JSON.stringify(manifest));
    }
    expect(publishedPackages(root).map((pkg: { name: string }) => pkg.name)).toEqual(['@boxagnts/api']);
  });
});

describe('tarballProblems: README links', () => {
  it('fails on a relative link, which leads nowhere on the registry page', () => {
    const dir = unpacked({ 'README.md': 'See [tools-manager](../tools-manager) and [the bench](bench/README.md).\n' });
    expect(tarballProblems(dir, LICENSE)).toEqual([
      'README.md links to ../tools-manager: use an absolute URL',
      'README.md links to bench/README.md: use an absolute URL',
    ]);
  });
});

describe('entryPoints', () => {
  it('names the main entry and every conditional subpath, not files, wildcards or package.json', () => {
    const manifest = {
      name: '@boxagnts/api',
      exports: {
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './adapter-kit': { types: './dist/adapter-kit.d.ts', default: './dist/adapter-kit.js' },
        './wit/*': './wit/*',
        './package.json': './package.json',
      },
    };
    expect(entryPoints(manifest)).toEqual(['@boxagnts/api', '@boxagnts/api/adapter-kit']);
  });
});
