// An app that bundles @boxagnts/wasm-tools into its own file (esbuild, everything inlined) cannot
// find the sandbox's run-time files; it must fail with an error that says to mark the package
// external, not "reinstall the package". The bundle is built and run in a folder outside the
// package, as an app's would be.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_DIR } from './runtime/test-fixtures.js';

const run = promisify(execFile);

const APP = `
import { createBashTool, createComponentRuntime } from '@boxagnts/wasm-tools';
const report = {};
try {
  createComponentRuntime();
  report.runtime = 'created';
} catch (error) {
  report.runtime = { name: error.name, reason: error.reason, message: error.message };
}
const context = { root: process.cwd(), signal: AbortSignal.timeout(10_000), sessionId: 's', turnId: 't', toolCallId: 'c' };
const result = await createBashTool().execute({ command: 'echo hi' }, context);
report.bash = { isError: result.isError === true, text: result.content.map((part) => part.text).join('') };
process.stdout.write(JSON.stringify(report));
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'boxagnts-bundled-app-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'my-app', type: 'module', private: true }));
  await writeFile(join(dir, 'app.mjs'), APP);
  await build({
    entryPoints: [join(dir, 'app.mjs')],
    outfile: join(dir, 'dist', 'app.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@boxagnts/source'],
    nodePaths: [join(PACKAGE_DIR, 'node_modules')],
    // As an app's bundler would find the installed package (here: its sources).
    alias: { '@boxagnts/wasm-tools': join(PACKAGE_DIR, 'src', 'index.ts') },
    // Loaded only by a build or a transpile (lazily); a real app without them still bundles.
    external: ['esbuild', 'componentize-qjs', '@bytecodealliance/jco-transpile'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('bundled into an app', () => {
  it('says to mark the package external, for the component runtime and for a worker-thread tool', async () => {
    const { stdout } = await run(process.execPath, [join(dir, 'dist', 'app.mjs')], { cwd: dir, timeout: 30_000 });
    const report = JSON.parse(stdout) as {
      runtime: { name: string; reason: string; message: string };
      bash: { isError: boolean; text: string };
    };
    expect(report.runtime.reason).toBe('bundled');
    expect(report.runtime.message).toContain(`was bundled into ${join(dir, 'dist', 'app.mjs')}`);
    expect(report.runtime.message).toContain('--external:@boxagnts/wasm-tools');
    expect(report.runtime.message).not.toContain('reinstall');
    expect(report.bash.isError).toBe(true);
    expect(report.bash.text).toContain('Mark the package external');
    expect(report.bash.text).not.toContain('reinstall');
  });
});
