import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without declarations
import { checkRepository, findCycles, importsOf, manifestProblems } from './check-deps.mjs';

const roots: string[] = [];

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-deps-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** What every published manifest carries (checked by `manifestProblems`); fixtures about imports reuse it. */
const META = {
  repository: { type: 'git', url: 'git+https://github.com/boxagnts/boxagnts-ts.git', directory: 'packages/x' },
  homepage: 'https://github.com/boxagnts/boxagnts-ts#readme',
  bugs: { url: 'https://github.com/boxagnts/boxagnts-ts/issues' },
  files: ['dist', 'LICENSE'],
};
const manifest = (name: string, dependencies: Record<string, string> = {}) =>
  JSON.stringify({ name, ...META, dependencies });

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('importsOf', () => {
  it('finds static, type-only, re-export and dynamic imports and ignores comments', () => {
    const text =
      `import a from './a.js';\nimport type { B } from "./b.js";\nexport { c } from './c.js';\n` +
      `const d = await import('./d.js');\n// import x from './commented.js';\n/* import y from './block.js' */`;
    expect(importsOf(text)).toEqual(['./a.js', './b.js', './c.js', './d.js']);
  });
});

describe('findCycles', () => {
  it('reports every cycle and nothing for a tree', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      findCycles(
        new Map([
          ['x', new Set(['y'])],
          ['y', new Set()],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('checkRepository', () => {
  it('passes a clean layered repository', () => {
    const root = repo({
      'packages/api/package.json': manifest('@boxagnts/api'),
      'packages/api/src/index.ts': `export { x } from './x.js';`,
      'packages/api/src/x.ts': 'export const x = 1;',
      'packages/tools/package.json': manifest('@boxagnts/tools', { '@boxagnts/api': 'workspace:*' }),
      'packages/tools/src/index.ts': `import { x } from '@boxagnts/api';\nexport const y = x;`,
    });
    expect(checkRepository(root)).toEqual([]);
  });

  it('fails on a cycle between files of one package', () => {
    const root = repo({
      'packages/api/package.json': manifest('@boxagnts/api'),
      'packages/api/src/a.ts': `import { b } from './b.js';\nexport const a = b;`,
      'packages/api/src/b.ts': `import type { a } from './a.js';\nexport const b = 1;`,
    });
    expect(checkRepository(root).join('\n')).toMatch(/import cycle in @boxagnts\/api: .*a\.ts -> .*b\.ts -> .*a\.ts/);
  });

  it('fails on a cycle between packages, an internal import and an upward import', () => {
    const root = repo({
      'packages/api/package.json': manifest('@boxagnts/api', { '@boxagnts/tools': 'workspace:*' }),
      'packages/api/src/index.ts': `import { y } from '@boxagnts/tools';\nexport const x = y;`,
      'packages/tools/package.json': manifest('@boxagnts/tools', { '@boxagnts/api': 'workspace:*' }),
      'packages/tools/src/index.ts': `import { x } from '@boxagnts/api/src/x.js';\nexport const y = x;`,
    });
    const problems = checkRepository(root).join('\n');
    expect(problems).toContain('dependency cycle between packages');
    expect(problems).toContain("another package's internals");
    expect(problems).toContain('@boxagnts/api may not import @boxagnts/tools');
  });

  it('fails on a relative import into another package and on an undeclared dependency', () => {
    const root = repo({
      'packages/api/package.json': manifest('@boxagnts/api'),
      'packages/api/src/x.ts': 'export const x = 1;',
      'packages/tools/package.json': manifest('@boxagnts/tools'),
      'packages/tools/src/index.ts': `import { x } from '../../api/src/x.js';\nimport { z } from '@boxagnts/api';\nexport const y = x + z;`,
    });
    const problems = checkRepository(root).join('\n');
    expect(problems).toContain('outside its package');
    expect(problems).toContain('does not declare');
  });
});

/** A package folder with a manifest and source files, for the dependency checks below. */
const pkg = (name: string, manifestFields: Record<string, unknown>, files: Record<string, string>) => ({
  [`packages/${name}/package.json`]: JSON.stringify({
    name: `@boxagnts/${name}`,
    ...META,
    ...manifestFields,
    files: [...META.files, ...((manifestFields.files as string[] | undefined) ?? [])],
  }),
  ...Object.fromEntries(Object.entries(files).map(([path, text]) => [`packages/${name}/src/${path}`, text])),
});

describe('checkRepository: third-party dependencies', () => {
  it('fails on a runtime dependency that only a test imports, and passes once it is a devDependency', () => {
    const files = {
      'index.ts': `import { z } from 'zod';\nexport const s = z.string();`,
      'codec.test.ts': `import { EventStreamCodec } from '@smithy/eventstream-codec';\nexport const c = EventStreamCodec;`,
    };
    const declaredAtRunTime = repo(
      pkg('api', { dependencies: { zod: '^4.6.7', '@smithy/eventstream-codec': '^4.5.2' } }, files),
    );
    expect(checkRepository(declaredAtRunTime)).toEqual([
      'packages/api/package.json: @smithy/eventstream-codec is a runtime dependency no shipped file of @boxagnts/api imports; make it a devDependency (or say in "//".unimported why it is needed)',
    ]);
    const moved = repo(
      pkg('api', { dependencies: { zod: '^4.6.7' }, devDependencies: { '@smithy/eventstream-codec': '4.5.2' } }, files),
    );
    expect(checkRepository(moved)).toEqual([]);
  });

  it('counts a workspace package imported only by a test helper or an unshipped folder as unused', () => {
    const root = repo({
      ...pkg('api', {}, { 'index.ts': 'export const x = 1;' }),
      ...pkg('tools', {}, { 'index.ts': 'export const t = 1;' }),
      ...pkg(
        'workspace',
        {
          dependencies: { '@boxagnts/api': 'workspace:*', '@boxagnts/tools': 'workspace:*' },
          files: ['dist', '!dist/crash'],
        },
        {
          'index.ts': `import { x } from '@boxagnts/api';\nexport const w = x;`,
          'crash/crash-child.ts': `import { t } from '@boxagnts/tools';\nexport const c = t;`,
          'store/store.test-suite.ts': `import { t } from '@boxagnts/tools';\nexport const s = t;`,
        },
      ),
    });
    expect(checkRepository(root)).toEqual([
      'packages/workspace/package.json: @boxagnts/tools is a runtime dependency no shipped file of @boxagnts/workspace imports; make it a devDependency (or say in "//".unimported why it is needed)',
    ]);
  });

  it("counts imports of a folder the tarball ships besides dist (the sandbox's guest sources)", () => {
    const files = {
      'packages/wasm-tools/guest/fs-tools/walk.js': `import ignore from 'ignore';\nexport const walk = ignore;`,
      'packages/wasm-tools/src/index.ts': 'export const x = 1;',
    };
    const shipped = repo({
      'packages/wasm-tools/package.json': JSON.stringify({
        name: '@boxagnts/wasm-tools',
        ...META,
        files: ['dist', 'guest', 'LICENSE'],
        dependencies: { ignore: '^7.0.17' },
      }),
      ...files,
    });
    expect(checkRepository(shipped)).toEqual([]);
    const notShipped = repo({
      'packages/wasm-tools/package.json': JSON.stringify({
        name: '@boxagnts/wasm-tools',
        ...META,
        dependencies: { ignore: '^7.0.17' },
      }),
      ...files,
    });
    expect(checkRepository(notShipped).join('\n')).toContain('ignore is a runtime dependency no shipped file');
  });

  it('counts a dynamic import() as a use and accepts a dependency explained in "//".unimported', () => {
    const root = repo(
      pkg(
        'api',
        {
          dependencies: { '@anthropic-ai/sdk': '^1.14.0', '@bytecodealliance/preview2-shim': '^0.26.1' },
          '//': { unimported: { '@bytecodealliance/preview2-shim': 'imported by the transpiled components' } },
        },
        {
          'index.ts': `export async function load() {\n  return (await import('@anthropic-ai/sdk/client')).default;\n}`,
        },
      ),
    );
    expect(checkRepository(root)).toEqual([]);
  });

  it('fails on a static or dynamic import of an undeclared package from a shipped file', () => {
    const root = repo(
      pkg(
        'tools',
        { dependencies: { yaml: '^2.9.1' } },
        {
          'index.ts': `import { parse } from 'yaml';\nimport { z } from 'zod';\nexport const p = [parse, z];`,
          'lazy.ts': `export const load = () => import('esbuild');`,
          'node.ts': `import { readFile } from 'node:fs/promises';\nimport path from 'path';\nexport const r = [readFile, path];`,
        },
      ),
    );
    expect(checkRepository(root).sort()).toEqual([
      'packages/tools/src/index.ts: imports zod, which @boxagnts/tools does not declare in dependencies or peerDependencies (this file is shipped)',
      'packages/tools/src/lazy.ts: imports esbuild, which @boxagnts/tools does not declare in dependencies or peerDependencies (this file is shipped)',
    ]);
  });

  it('lets tests import devDependencies and the repository root devDependencies, but not undeclared packages', () => {
    const root = repo({
      'package.json': JSON.stringify({ name: 'root', private: true, devDependencies: { vitest: '4.1.12' } }),
      ...pkg(
        'tools',
        { devDependencies: { '@types/picomatch': '4.0.3', zod: '4.6.7' } },
        {
          'index.ts': 'export const t = 1;',
          'index.test.ts': `import { it } from 'vitest';\nimport { z } from 'zod';\nimport type pm from 'picomatch';\nimport left from 'left-pad';\nexport const x = [it, z, left] as unknown as pm;`,
        },
      ),
    });
    expect(checkRepository(root)).toEqual([
      'packages/tools/src/index.test.ts: imports left-pad, which @boxagnts/tools does not declare in its dependencies',
    ]);
  });

  it('fails on a pinned third-party runtime dependency unless "//".pinned says why', () => {
    const files = {
      'index.ts': `import { transpile } from 'jco';\nimport { z } from 'zod';\nexport const t = [transpile, z];`,
    };
    const pinned = repo(pkg('wasm-tools', { dependencies: { jco: '0.15.0', zod: '~4.6.7' } }, files));
    expect(checkRepository(pinned).sort()).toEqual([
      'packages/wasm-tools/package.json: jco@0.15.0 is pinned; use a caret range (^0.15.0) or say in "//".pinned why the pin is needed',
      'packages/wasm-tools/package.json: zod@~4.6.7 is pinned; use a caret range (^4.6.7) or say in "//".pinned why the pin is needed',
    ]);
    const explained = repo(
      pkg(
        'wasm-tools',
        { dependencies: { jco: '0.15.0', zod: '^4.6.7' }, '//': { pinned: { jco: 'its version is in a cache key' } } },
        files,
      ),
    );
    expect(checkRepository(explained)).toEqual([]);
    const stale = repo(
      pkg('wasm-tools', { dependencies: { zod: '^4.6.7' }, '//': { pinned: { jco: 'left over' } } }, files),
    );
    expect(checkRepository(stale).join('\n')).toContain('"//".pinned names jco, which is not a runtime dependency');
  });

  it('fails when a shipped file imports a test helper that is not shipped', () => {
    const root = repo(
      pkg(
        'wasm-tools',
        {},
        {
          'index.ts': `import { fixture } from './runtime/test-fixtures.js';\nexport const f = fixture;`,
          'runtime/test-fixtures.ts': 'export const fixture = 1;',
        },
      ),
    );
    expect(checkRepository(root)).toEqual([
      'packages/wasm-tools/src/index.ts: imports ./runtime/test-fixtures.js, a test file that is not shipped; move what it needs out of it',
    ]);
  });
});

describe('importsOf: what is not an import', () => {
  it('ignores the words import and export inside strings and test names', () => {
    const text = `it('accepts a named export "plugin"', () => {});\nit('reads an import', async () => {});\nimport 'side-effect';`;
    expect(importsOf(text)).toEqual(['side-effect']);
  });
});

describe('checkRepository: a package importing itself by name', () => {
  it('fails in shipped code and lets a test use the public entry, as an app does', () => {
    const root = repo(
      pkg(
        'wasm-tools',
        {},
        {
          'index.ts': `import { y } from '@boxagnts/wasm-tools';\nexport const x = y;`,
          'bundled-app.test.ts': `import { x } from '@boxagnts/wasm-tools';\nexport const t = x;`,
        },
      ),
    );
    expect(checkRepository(root)).toEqual([
      'packages/wasm-tools/src/index.ts: imports its own package by name (@boxagnts/wasm-tools); use a relative import',
    ]);
  });
});

describe('manifestProblems', () => {
  it('fails on exports without a default condition, missing metadata, other engines and a missing LICENSE', () => {
    const root = repo({
      'package.json': JSON.stringify({ name: 'root', private: true, engines: { node: '^20.19.0 || >=22.12.0' } }),
      LICENSE: 'Apache License 2.0\n',
      'packages/api/LICENSE': 'MIT\n',
    });
    const problems = manifestProblems(
      {
        name: '@boxagnts/api',
        engines: { node: '>=20' },
        files: ['dist'],
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './package.json': './package.json' },
      },
      'packages/api/package.json',
      join(root, 'packages', 'api'),
      root,
    );
    expect(problems).toEqual([
      'packages/api/package.json: exports["."] must list "types" first and "default" last (got types, import)',
      `packages/api/package.json: engines.node must be the repository's "^20.19.0 || >=22.12.0"`,
      'packages/api/package.json: no repository url and directory',
      'packages/api/package.json: no homepage',
      'packages/api/package.json: no bugs url',
      'packages/api/package.json: "files" must list LICENSE',
      'packages/api/LICENSE must be a copy of the repository LICENSE',
    ]);
  });

  it('passes a complete manifest', () => {
    const root = repo({
      'package.json': JSON.stringify({ name: 'root', private: true, engines: { node: '^20.19.0 || >=22.12.0' } }),
      LICENSE: 'Apache License 2.0\n',
      'packages/api/LICENSE': 'Apache License 2.0\n',
    });
    const complete = {
      name: '@boxagnts/api',
      ...META,
      engines: { node: '^20.19.0 || >=22.12.0' },
      exports: {
        '.': {
          '@boxagnts/source': './src/index.ts',
          types: './dist/index.d.ts',
          import: './dist/index.js',
          default: './dist/index.js',
        },
      },
    };
    expect(manifestProblems(complete, 'packages/api/package.json', join(root, 'packages', 'api'), root)).toEqual([]);
  });
});
