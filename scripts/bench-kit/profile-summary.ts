// Shared by the packages' benchmarks (api, query): a readable summary of a V8 CPU profile.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The parts of a V8 `.cpuprofile` the summary reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Maps a generated position (0-based) to its source, e.g. through the bundle's source map. */
export type FrameMapper = (url: string, line: number, column: number) => { url: string; line: number } | undefined;

/** `file:///…/node_modules/.pnpm/ai@6/node_modules/ai/dist/x.mjs` -> `ai/dist/x.mjs`; repo files from `packages/`. */
function shortUrl(url: string): string {
  if (url === '') return '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) return url.slice(modules + '/node_modules/'.length);
  const packages = url.indexOf('/packages/');
  if (packages !== -1) return url.slice(packages + 1);
  return url.replace(/^file:\/\//, '');
}

function table(
  title: string,
  entries: Map<string, number>,
  total: number,
  perRun: number | undefined,
  top: number,
): string {
  const lines = [...entries.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => {
      const share = `${((micros / total) * 100).toFixed(1).padStart(5)}%`;
      const run = perRun === undefined ? '' : `  ${(micros / perRun).toFixed(2).padStart(7)} µs/run`;
      return `  ${share}${run}  ${name}`;
    });
  return `${title}\n${lines.join('\n')}`;
}

/** What to show: the top N rows of each table, and µs per run when the number of runs is known. */
export interface SummaryOptions {
  top: number;
  runs?: number;
  mapFrame?: FrameMapper;
}

/**
 * Self time by function and by file, and inclusive time (synchronous stacks only: time after an
 * `await` starts a new stack) by function, as shares of the busy (not idle) sampled time and, with
 * `runs`, as µs per run.
 */
export function summarizeProfile(profile: CpuProfile, options: SummaryOptions): string {
  const { top, runs, mapFrame } = options;
  const located = new Map<number, { url: string; line: number }>();
  const locate = (node: CpuProfile['nodes'][number]) => {
    let place = located.get(node.id);
    if (place === undefined) {
      const frame = node.callFrame;
      place = mapFrame?.(frame.url, frame.lineNumber, frame.columnNumber) ?? { url: frame.url, line: frame.lineNumber };
      located.set(node.id, place);
    }
    return place;
  };
  const label = (node: CpuProfile['nodes'][number]) => {
    const place = locate(node);
    return `${node.callFrame.functionName || '(anonymous)'}  ${shortUrl(place.url)}:${place.line + 1}`;
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const files = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (node === undefined) return;
    if (node.callFrame.functionName === '(idle)') {
      idle += micros;
      return;
    }
    total += micros;
    add(self, label(node), micros);
    add(files, node.callFrame.url === '' ? `(${node.callFrame.functionName})` : shortUrl(locate(node).url), micros);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const ancestor = byId.get(at);
      if (ancestor === undefined || ancestor.callFrame.url === '') continue;
      const key = label(ancestor);
      if (seen.has(key)) continue;
      seen.add(key);
      add(inclusive, key, micros);
    }
  });
  if (total === 0) return 'no samples';
  return [
    `Busy ${((total / (total + idle)) * 100).toFixed(0)}% of the sampled time (wall-clock samples); shares below are of the busy time.`,
    table('Self time by function:', self, total, runs, top),
    table('Self time by file:', files, total, runs, top),
    table('Inclusive time by function (synchronous stacks):', inclusive, total, runs, top),
  ].join('\n\n');
}

/**
 * Maps positions in a bundled bench (`bundleUrl`, the bundle's own `import.meta.url`) back to the
 * TypeScript sources through its source map; undefined when not running a bundle with a map.
 */
export function bundleMapper(bundleUrl: string): FrameMapper | undefined {
  const mapPath = `${fileURLToPath(bundleUrl)}.map`;
  if (!bundleUrl.endsWith('.mjs') || !existsSync(mapPath)) return undefined;
  const map = new SourceMap(JSON.parse(readFileSync(mapPath, 'utf8')));
  const base = dirname(mapPath);
  return (url, line, column) => {
    if (url !== bundleUrl) return undefined;
    const entry = map.findEntry(line, column) as { originalSource?: string; originalLine?: number };
    if (entry.originalSource === undefined || entry.originalLine === undefined) return undefined;
    const source = entry.originalSource.startsWith('file:')
      ? entry.originalSource
      : pathToFileURL(resolve(base, entry.originalSource)).href;
    return { url: source, line: entry.originalLine };
  };
}
