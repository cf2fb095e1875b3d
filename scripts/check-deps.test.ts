import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without declarations
import { checkRepository, findCycles, importsOf } from './check-deps.mjs';

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

const manifest = (name: string, dependencies: Record<string, string> = {}) => JSON.stringify({ name, dependencies });

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
