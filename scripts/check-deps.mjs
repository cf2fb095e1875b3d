#!/usr/bin/env node
// Fails on import cycles (between packages and between files of one package), on imports of another
// package's internals (anything but `@boxagnts/<name>`), on relative imports that leave their package,
// on imports against the layering of ARCHITECTURE.md, on imports (static or dynamic) of packages a package
// does not declare (shipped files: `dependencies`/`peerDependencies`; tests: any of its dependencies or the
// repository's devDependencies), on runtime dependencies no shipped file imports, and on third-party runtime
// dependencies without a caret range. A pin or a dependency loaded other than by `import` is allowed only
// with its reason in the manifest's `"//"` note: `{ "pinned": { "<dep>": "why" }, "unimported": { ... } }`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which `@boxagnts/*` packages each package may import at run time (ARCHITECTURE.md, transitively closed). */
export const ALLOWED_LAYERS = {
  api: [],
  tools: ['api'],
  'wasm-tools': ['tools', 'api'],
  'tools-manager': ['tools', 'wasm-tools', 'api'],
  query: ['api', 'tools'],
  // A real runtime dependency, not types only: the store resumes a session with the loop's own history repair
  // (`historyFromEntries`) and the config checks agent names against the loop's `BUILTIN_AGENTS`; one copy of
  // each, owned by the loop, so a stored session always resumes the way the loop would repair it.
  workspace: ['api', 'query', 'tools'],
  gateway: ['api', 'tools', 'wasm-tools', 'tools-manager', 'query', 'workspace'],
  testkit: [],
};

const SOURCE_EXTENSIONS = ['.ts', '.mts', '.tsx', '.js', '.mjs'];
const IMPORT_PATTERN =
  /(?:^|[\s;}])(?:import|export)\s+(?:type\s+)?[\w*{}\s,$]+?\s+from\s*['"]([^'"]+)['"]|(?:^|;)[ \t]*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Module specifiers a source text imports (static, re-exports, dynamic with a literal). */
export function importsOf(text) {
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const specifiers = [];
  for (const match of withoutComments.matchAll(IMPORT_PATTERN)) specifiers.push(match[1] ?? match[2] ?? match[3]);
  return specifiers;
}

function walk(dir) {
  const files = [];
  if (!existsSync(dir)) return files;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(path));
    else if (SOURCE_EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts'))
      files.push(path);
  }
  return files;
}

/** Resolve a relative specifier (`./x.js` written for `./x.ts`) to a file on disk. */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|ts)$/, '');
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((ext) => stem + ext),
    ...SOURCE_EXTENSIONS.map((ext) => join(base, `index${ext}`)),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

// Test files and the helpers only tests import (`*.test.ts`, `*.test.helpers.ts`, `*.test-support.ts`,
// `*.test-suite.ts`, `test-support.ts`, `test-fixtures.ts`, anything under a `test/` folder).
const isTestFile = (path) =>
  /\.test([.-][\w-]+)?\.[mc]?[tj]sx?$/.test(path) ||
  /(^|[\\/])test-(support|fixtures)\.[mc]?[tj]sx?$/.test(path) ||
  path.split(sep).includes('test');

/** `!dist/...` entries of a manifest's `files` as tests on a path relative to `src/` (`**` = any folders). */
function unshippedMatchers(manifest) {
  return (manifest.files ?? [])
    .filter((entry) => entry.startsWith('!dist/'))
    .map((entry) => {
      const pattern = entry
        .slice('!dist/'.length)
        .split('/')
        .map((part) =>
          part === '**' ? '(?:.+/)?' : `${part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}/`,
        )
        .join('');
      // A pattern names a file or a folder: it matches the path itself or any folder above it.
      return new RegExp(`^${pattern.replace(/\/$/, '')}(?:/|$)`);
    });
}

/** The npm package a bare specifier names (`@scope/name/sub` -> `@scope/name`), or undefined for builtins. */
export function packageOf(specifier) {
  if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0])) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** A specifier a package may leave undeclared: relative, absolute, a URL, a builtin, or a bundler virtual id. */
const isBare = (specifier) => !/^(\.|\/|[a-z]+:)/i.test(specifier) && packageOf(specifier) !== undefined;

/** Strongly connected components with more than one node (or a self-loop): the cycles. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indices = new Map();
  const lowLinks = new Map();
  const cycles = [];
  const visit = (node) => {
    indices.set(node, index);
    lowLinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowLinks.set(node, Math.min(lowLinks.get(node), lowLinks.get(next)));
      } else if (onStack.has(next)) {
        lowLinks.set(node, Math.min(lowLinks.get(node), indices.get(next)));
      }
    }
    if (lowLinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? new Set()).has(node)) cycles.push(component.reverse());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return cycles;
}

/**
 * What a published manifest must say (the tarballs themselves are checked by scripts/check-packages.mjs):
 * `types` first and `default` last in every conditional `exports` entry (so `require()` works), the
 * repository's `engines`, `repository` with its `directory`, `homepage`, `bugs`, and the root LICENSE shipped.
 */
export function manifestProblems(manifest, where, dir, root) {
  const problems = [];
  for (const [key, entry] of Object.entries(manifest.exports ?? {})) {
    if (!entry || typeof entry !== 'object') continue;
    const conditions = Object.keys(entry).filter((condition) => condition !== '@boxagnts/source');
    if (conditions[0] !== 'types' || conditions.at(-1) !== 'default') {
      problems.push(
        `${where}: exports["${key}"] must list "types" first and "default" last (got ${conditions.join(', ')})`,
      );
    }
  }
  const rootManifestPath = join(root, 'package.json');
  const rootEngines = existsSync(rootManifestPath)
    ? JSON.parse(readFileSync(rootManifestPath, 'utf8')).engines?.node
    : undefined;
  if (rootEngines && manifest.engines?.node !== rootEngines) {
    problems.push(`${where}: engines.node must be the repository's "${rootEngines}"`);
  }
  if (!manifest.repository?.url || !manifest.repository?.directory)
    problems.push(`${where}: no repository url and directory`);
  if (!manifest.homepage) problems.push(`${where}: no homepage`);
  if (!manifest.bugs?.url) problems.push(`${where}: no bugs url`);
  const license = join(dir, 'LICENSE');
  const rootLicense = join(root, 'LICENSE');
  if (!(manifest.files ?? []).includes('LICENSE')) problems.push(`${where}: "files" must list LICENSE`);
  if (
    existsSync(rootLicense) &&
    (!existsSync(license) || readFileSync(license, 'utf8') !== readFileSync(rootLicense, 'utf8'))
  ) {
    problems.push(`${relative(root, license)} must be a copy of the repository LICENSE`);
  }
  return problems;
}

/** Check a repository; returns a list of problems (empty when clean). */
export function checkRepository(root) {
  const problems = [];
  const packages = [];
  const rootManifestPath = join(root, 'package.json');
  const rootDevDeps = existsSync(rootManifestPath)
    ? Object.keys(JSON.parse(readFileSync(rootManifestPath, 'utf8')).devDependencies ?? {})
    : [];
  for (const group of ['packages', 'extensions', 'examples']) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir)) {
      const manifestPath = join(groupDir, name, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      packages.push({ group, dir: join(groupDir, name), manifest });
    }
  }
  const packageGraph = new Map();
  for (const pkg of packages) {
    const own = pkg.manifest.name;
    const shortName = own.replace(/^@boxagnts\//, '');
    const runtimeDeps = new Set(Object.keys({ ...pkg.manifest.dependencies, ...pkg.manifest.peerDependencies }));
    const allDeps = new Set([...runtimeDeps, ...Object.keys(pkg.manifest.devDependencies ?? {}), ...rootDevDeps]);
    packageGraph.set(own, new Set([...runtimeDeps].filter((dep) => dep.startsWith('@boxagnts/'))));
    const fileGraph = new Map();
    const note = pkg.manifest['//'] ?? {};
    const unshipped = unshippedMatchers(pkg.manifest);
    const usedAtRunTime = new Set();
    const isShipped = (file) => {
      const inSrc = relative(join(pkg.dir, 'src'), file).split(sep).join('/');
      return !isTestFile(file) && !unshipped.some((matcher) => matcher.test(inSrc));
    };
    // Package code lives in src/, and in any other folder the tarball ships as is (`files`, e.g. the sandbox's
    // guest sources); build configs and benches at the package root are repository tooling.
    const shippedFolders = (pkg.manifest.files ?? [])
      .filter((entry) => !entry.startsWith('!') && entry !== 'dist' && entry !== 'src' && !entry.includes('*'))
      .map((entry) => join(pkg.dir, entry))
      .filter((path) => existsSync(path) && statSync(path).isDirectory());
    for (const file of [join(pkg.dir, 'src'), ...shippedFolders].flatMap((folder) => walk(folder))) {
      const where = relative(root, file);
      const shipped = isShipped(file);
      const edges = new Set();
      fileGraph.set(file, edges);
      for (const specifier of new Set(importsOf(readFileSync(file, 'utf8')))) {
        if (isBare(specifier) && !specifier.startsWith('@boxagnts/')) {
          const name = packageOf(specifier);
          if (shipped) usedAtRunTime.add(name);
          // A package typed by DefinitelyTyped may be imported (types only) with just its `@types/` package.
          const typesPackage = `@types/${name.replace(/^@([^/]+)\//, '$1__')}`;
          const declared = shipped
            ? runtimeDeps.has(name) || runtimeDeps.has(typesPackage)
            : allDeps.has(name) || allDeps.has(typesPackage);
          if (!declared) {
            problems.push(
              `${where}: imports ${name}, which ${own} does not declare in ${shipped ? 'dependencies or peerDependencies (this file is shipped)' : 'its dependencies'}`,
            );
          }
          continue;
        }
        if (specifier.startsWith('.')) {
          const target = resolveRelative(file, specifier);
          if (!target) continue;
          if (!target.startsWith(pkg.dir + sep)) {
            problems.push(`${where}: imports ${specifier}, outside its package; import the other package by name`);
            continue;
          }
          edges.add(target);
          if (shipped && pkg.group === 'packages' && !isShipped(target)) {
            problems.push(
              `${where}: imports ${specifier}, a test file that is not shipped; move what it needs out of it`,
            );
          }
          continue;
        }
        const scoped = /^@boxagnts\/([^/]+)(\/.*)?$/.exec(specifier);
        if (!scoped) continue;
        const [, target, subpath] = scoped;
        const targetName = `@boxagnts/${target}`;
        // A subpath the target declares in its `exports` (`@boxagnts/api/adapter-kit`) is public; any other is not.
        const exportedSubpath = packages.find((other) => other.manifest.name === targetName)?.manifest.exports?.[
          `.${subpath}`
        ];
        if (subpath && subpath !== '/package.json' && exportedSubpath === undefined) {
          problems.push(`${where}: imports ${specifier}, another package's internals; import ${targetName} only`);
        }
        if (targetName === own) {
          // Shipped code would load a second copy of itself (or a cycle); a test may use the public entry, as an app does.
          if (shipped) {
            problems.push(`${where}: imports its own package by name (${specifier}); use a relative import`);
          }
          continue;
        }
        if (shipped) usedAtRunTime.add(targetName);
        const declared = shipped ? runtimeDeps.has(targetName) : allDeps.has(targetName);
        if (!declared) {
          problems.push(
            `${where}: imports ${targetName}, which ${own} does not declare in ${shipped ? 'dependencies or peerDependencies (this file is shipped)' : 'its dependencies'}`,
          );
        }
        const allowed = ALLOWED_LAYERS[shortName];
        if (pkg.group === 'packages' && allowed && shipped && !allowed.includes(target)) {
          problems.push(
            `${where}: ${own} may not import ${targetName} (layers: ${shortName} -> ${allowed.join(', ') || 'nothing'})`,
          );
        }
      }
    }
    for (const cycle of findCycles(fileGraph)) {
      problems.push(`import cycle in ${own}: ${[...cycle, cycle[0]].map((file) => relative(root, file)).join(' -> ')}`);
    }
    if (pkg.group !== 'packages') continue;
    const manifestWhere = relative(root, join(pkg.dir, 'package.json'));
    if (!pkg.manifest.private) problems.push(...manifestProblems(pkg.manifest, manifestWhere, pkg.dir, root));
    for (const [dep, range] of Object.entries({ ...pkg.manifest.dependencies, ...pkg.manifest.peerDependencies })) {
      if (!usedAtRunTime.has(dep) && !note.unimported?.[dep]) {
        problems.push(
          `${manifestWhere}: ${dep} is a runtime dependency no shipped file of ${own} imports; make it a devDependency (or say in "//".unimported why it is needed)`,
        );
      }
      if (dep.startsWith('@boxagnts/') || range.startsWith('workspace:')) continue;
      if (pkg.manifest.dependencies?.[dep] === range && !range.startsWith('^') && !note.pinned?.[dep]) {
        problems.push(
          `${manifestWhere}: ${dep}@${range} is pinned; use a caret range (^${range.replace(/^[~=v]/, '')}) or say in "//".pinned why the pin is needed`,
        );
      }
    }
    for (const [kind, entries] of Object.entries(note)) {
      if (kind !== 'pinned' && kind !== 'unimported') continue;
      for (const dep of Object.keys(entries ?? {})) {
        if (!runtimeDeps.has(dep))
          problems.push(`${manifestWhere}: "//".${kind} names ${dep}, which is not a runtime dependency`);
      }
    }
  }
  for (const cycle of findCycles(packageGraph)) {
    problems.push(`dependency cycle between packages: ${[...cycle, cycle[0]].join(' -> ')}`);
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkRepository(root);
  if (problems.length > 0) {
    process.stderr.write(`check-deps: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(
    'check-deps: no import cycles, no internal imports, layers respected, every dependency declared and used\n',
  );
}
