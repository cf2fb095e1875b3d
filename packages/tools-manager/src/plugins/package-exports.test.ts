import { describe, expect, it } from 'vitest';
import { exportedSubpaths, resolvePackageExports } from './package-exports.js';

const IMPORT = new Set(['import', 'node']);
const REQUIRE = new Set(['require', 'node']);

describe('resolvePackageExports', () => {
  it('reads the sugar forms as the "." export', () => {
    expect(resolvePackageExports('./index.js', '.', IMPORT)).toBe('./index.js');
    expect(resolvePackageExports('./index.js', './other', IMPORT)).toBeNull();
    expect(resolvePackageExports({ import: './a.mjs', require: './a.cjs' }, '.', REQUIRE)).toBe('./a.cjs');
    expect(resolvePackageExports(['./first.js', './second.js'], '.', IMPORT)).toBe('./first.js');
  });

  it('picks the first matching condition in the order the map lists them', () => {
    const exports = {
      '.': { types: './index.d.ts', require: './index.cjs', import: './index.mjs', default: './fallback.js' },
    };
    expect(resolvePackageExports(exports, '.', IMPORT)).toBe('./index.mjs');
    expect(resolvePackageExports(exports, '.', new Set(['browser']))).toBe('./fallback.js');
    const nodeFirst = { '.': { node: './node.js', import: './import.mjs' } };
    expect(resolvePackageExports(nodeFirst, '.', IMPORT)).toBe('./node.js');
  });

  it('follows nested conditions and a custom condition', () => {
    const exports = { '.': { '@boxagnts/source': './src/index.ts', node: { import: './dist/index.js' } } };
    expect(resolvePackageExports(exports, '.', IMPORT)).toBe('./dist/index.js');
    expect(resolvePackageExports(exports, '.', new Set([...IMPORT, '@boxagnts/source']))).toBe('./src/index.ts');
  });

  it('treats null as "not exported", and a condition set with no match as missing', () => {
    expect(resolvePackageExports({ '.': './index.js', './internal': null }, './internal', IMPORT)).toBeNull();
    expect(resolvePackageExports({ '.': { require: './index.cjs' } }, '.', IMPORT)).toBeNull();
    expect(resolvePackageExports({ '.': './index.js' }, './missing', IMPORT)).toBeNull();
  });

  it('expands * patterns, preferring the longest prefix', () => {
    const exports = {
      './tools/*': './dist/tools/*.js',
      './tools/special/*': './dist/special/*.mjs',
      './data/*.json': './data/*.json',
    };
    expect(resolvePackageExports(exports, './tools/echo', IMPORT)).toBe('./dist/tools/echo.js');
    expect(resolvePackageExports(exports, './tools/special/one', IMPORT)).toBe('./dist/special/one.mjs');
    expect(resolvePackageExports(exports, './data/names.json', IMPORT)).toBe('./data/names.json');
    expect(resolvePackageExports(exports, './data/names.txt', IMPORT)).toBeNull();
    expect(resolvePackageExports(exports, './tools/', IMPORT)).toBeNull();
  });

  it('refuses targets that leave the package or do not start with ./', () => {
    expect(resolvePackageExports({ '.': '../outside.js' }, '.', IMPORT)).toBeNull();
    expect(resolvePackageExports({ '.': './a/../../outside.js' }, '.', IMPORT)).toBeNull();
    expect(resolvePackageExports({ '.': '/etc/passwd' }, '.', IMPORT)).toBeNull();
    expect(resolvePackageExports({ '.': './node_modules/other/index.js' }, '.', IMPORT)).toBeNull();
    expect(resolvePackageExports({ './x/*': './lib/*.js' }, './x/../../escape', IMPORT)).toBeNull();
  });

  it('moves past an invalid target in a fallback array', () => {
    expect(resolvePackageExports({ '.': ['../bad.js', './good.js'] }, '.', IMPORT)).toBe('./good.js');
  });

  it('lists the subpaths a map offers', () => {
    expect(exportedSubpaths({ '.': './a.js', './b': './b.js' })).toEqual(['.', './b']);
    expect(exportedSubpaths({ import: './a.mjs' })).toEqual(['.']);
    expect(exportedSubpaths(42)).toEqual([]);
  });
});
