import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue, MODELS_DEV_API_URL } from './build-catalogue.js';
import { buildScriptPath, smallModelsDev, tsxPath } from './catalogue.test.helpers.js';
import { fetchModelsDevCatalogue, fetchModelsDevJson } from './refresh-catalogue.js';
import { serializeCatalogue } from './serialize-catalogue.js';

const run = promisify(execFile);

/** A loopback stand-in for models.dev: `/api.json` serves the small catalogue; other paths misbehave. */
let server: Server;
let baseUrl: string;
const seen: { url: string; accept: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', accept: request.headers.accept });
    const path = (request.url ?? '').split('?')[0];
    if (path === '/api.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(smallModelsDev()));
    } else if (path === '/broken.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"anthropic": ');
    } else if (path === '/huge.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ padding: 'x'.repeat(5_000) }));
    } else {
      response.writeHead(503, 'Service Unavailable');
      response.end('down for maintenance');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('fetchModelsDevCatalogue', () => {
  it('downloads api.json and builds the same catalogue as from a file', async () => {
    const catalogue = await fetchModelsDevCatalogue({ url: `${baseUrl}/api.json` });
    expect(catalogue).toEqual(buildCatalogue(smallModelsDev()));
    expect(seen.at(-1)).toEqual({ url: '/api.json', accept: 'application/json' });
  });

  it('uses the injected fetch and defaults to the models.dev URL', async () => {
    const requested: string[] = [];
    const catalogue = await fetchModelsDevCatalogue({
      fetch: async (input, init) => {
        requested.push(String(input));
        // Served by the loopback server, whatever URL was asked for.
        return fetch(`${baseUrl}/api.json`, init);
      },
      build: { providers: ['google'] },
    });
    expect(requested).toEqual([MODELS_DEV_API_URL]);
    expect(MODELS_DEV_API_URL).toBe('https://models.dev/api.json');
    expect(catalogue.models.map((model) => model.id)).toEqual(['gemini-test-pro']);
  });

  it('rejects with the URL and status on an HTTP error, without the secrets a URL may carry', async () => {
    const rejection = fetchModelsDevJson({ url: `${baseUrl}/missing.json?key=canary-secret-1234` });
    await expect(rejection).rejects.toThrow(
      `Could not download the model catalogue from ${baseUrl}/missing.json?key=[redacted]: HTTP 503 Service Unavailable`,
    );
    await expect(rejection).rejects.not.toThrow(/canary-secret/);
  });

  it('rejects invalid JSON, an oversized body and an unreachable server', async () => {
    await expect(fetchModelsDevJson({ url: `${baseUrl}/broken.json` })).rejects.toThrow(
      `The model catalogue from ${baseUrl}/broken.json is not valid JSON.`,
    );
    await expect(fetchModelsDevJson({ url: `${baseUrl}/huge.json`, maxBytes: 1_000 })).rejects.toThrow(
      /over the 1000-byte limit/,
    );
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(fetchModelsDevJson({ url: `http://127.0.0.1:${port}/api.json` })).rejects.toThrow(
      `Could not download the model catalogue from http://127.0.0.1:${port}/api.json`,
    );
  });

  it('stops at the caller’s signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(fetchModelsDevJson({ url: `${baseUrl}/api.json`, signal: controller.signal })).rejects.toThrow(
      /Could not download the model catalogue/,
    );
  });
});

describe('scripts/build-catalogue.ts as a command', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'boxagnts-catalogue-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--refresh --url writes the catalogue built from the downloaded JSON', async () => {
    const out = join(dir, 'refreshed.json');
    const { stdout } = await run(tsxPath, [buildScriptPath, '--refresh', '--url', `${baseUrl}/api.json`, '--out', out]);
    expect(stdout).toMatch(
      /^Wrote .*refreshed\.json: 2 models from 2 providers, \d+ bytes, from http:\/\/127\.0\.0\.1/,
    );
    expect(readFileSync(out, 'utf8')).toBe(serializeCatalogue(buildCatalogue(smallModelsDev())));
  });

  it('--source builds from a file and --check tells whether the output is current', async () => {
    const source = join(dir, 'models.dev.json');
    const out = join(dir, 'from-file.json');
    writeFileSync(source, JSON.stringify(smallModelsDev()));
    await run(tsxPath, [buildScriptPath, '--source', source, '--out', out]);
    expect(readFileSync(out, 'utf8')).toBe(serializeCatalogue(buildCatalogue(smallModelsDev())));
    const check = await run(tsxPath, [buildScriptPath, '--source', source, '--out', out, '--check']);
    expect(check.stdout).toMatch(/is up to date/);
    writeFileSync(out, '{}\n');
    await expect(run(tsxPath, [buildScriptPath, '--source', source, '--out', out, '--check'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/differs from what .* builds/),
    });
  });

  it('says clearly where it looked when the models.dev file is missing, and fails on a download error', async () => {
    const missing = join(dir, 'nowhere.json');
    await expect(
      run(tsxPath, [buildScriptPath, '--source', missing, '--out', join(dir, 'x.json')]),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`No models.dev catalogue at ${missing}.`),
    });
    await expect(
      run(tsxPath, [buildScriptPath, '--refresh', '--url', `${baseUrl}/down.json`, '--out', join(dir, 'y.json')]),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('HTTP 503') });
  });
});
