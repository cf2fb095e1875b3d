import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeTool } from '../execute-tool.js';
import { testContext } from '../test/context.js';
import type { ToolLogger } from '../tool-context.js';
import { resultText } from '../tool-results.js';
import { type Brief, briefTool, createBriefTool, guessMimeType } from './brief.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'brief-'));
  await mkdir(path.join(root, 'reports'));
  await writeFile(path.join(root, 'reports', 'summary.md'), '# Summary\n');
  await writeFile(path.join(root, 'shot.png'), Buffer.alloc(1_234));
  outside = await mkdtemp(path.join(tmpdir(), 'brief-outside-'));
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

function recordingLogger() {
  const lines: Array<{ level: string; message: string; data?: Record<string, unknown> }> = [];
  const log = (level: string) => (message: string, data?: Record<string, unknown>) => {
    lines.push({ level, message, ...(data === undefined ? {} : { data }) });
  };
  const logger: ToolLogger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  return { lines, logger };
}

describe('brief', () => {
  it('delivers the message and attachment metadata to the host', async () => {
    const briefs: Brief[] = [];
    const tool = createBriefTool({ onBrief: (brief) => void briefs.push(brief) });
    const result = await executeTool(
      tool,
      {
        message: 'Tests pass; the report is ready.',
        attachments: [{ path: 'reports/summary.md' }, { path: './shot.png', mimeType: 'image/x-custom' }],
      },
      testContext({ root }),
    );
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe('Brief sent to the user with 2 attachment(s).');
    expect(briefs).toEqual([
      {
        message: 'Tests pass; the report is ready.',
        attachments: [
          {
            path: path.join(root, 'reports', 'summary.md'),
            relativePath: 'reports/summary.md',
            mimeType: 'text/markdown',
            sizeBytes: 10,
          },
          { path: path.join(root, 'shot.png'), relativePath: 'shot.png', mimeType: 'image/x-custom', sizeBytes: 1_234 },
        ],
        sessionId: 'session-test',
        turnId: 'turn-1',
        toolCallId: 'call_test_1',
      },
    ]);
  });

  it('succeeds without a host and logs the brief', async () => {
    const { lines, logger } = recordingLogger();
    const result = await executeTool(briefTool, { message: 'Halfway there.' }, testContext({ root, logger }));
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toBe('Brief sent to the user.');
    expect(result.metadata).toEqual({ delivered: false, attachments: [] });
    expect(lines).toEqual([{ level: 'info', message: 'brief', data: { message: 'Halfway there.', attachments: [] } }]);
  });

  it('refuses attachments that are missing, folders, or outside the root, and sends nothing', async () => {
    const briefs: Brief[] = [];
    const tool = createBriefTool({ onBrief: (brief) => void briefs.push(brief) });
    const cases: Array<[string, string]> = [
      ['nope.txt', 'does not exist'],
      ['reports', 'is not a file'],
      ['.', 'is not a file'],
      ['link.txt', 'outside the working root'],
      ['../outside.txt', 'outside the working root'],
      [path.join(tmpdir(), 'x.txt'), 'outside the working root'],
    ];
    for (const [attachment, message] of cases) {
      const result = await executeTool(
        tool,
        { message: 'See file.', attachments: [{ path: attachment }] },
        testContext({ root }),
      );
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain(message);
      expect(resultText(result)).toContain('The brief was not sent.');
    }
    expect(briefs).toEqual([]);
  });

  it('refuses invalid input', async () => {
    const empty = await executeTool(briefTool, { message: '  ' }, testContext({ root }));
    expect(empty.isError).toBe(true);
    expect(resultText(empty)).toContain('message');
    const badMime = await executeTool(
      briefTool,
      { message: 'x', attachments: [{ path: 'shot.png', mimeType: 'png' }] },
      testContext({ root }),
    );
    expect(badMime.isError).toBe(true);
    expect(resultText(badMime)).toContain('Use a MIME type like');
  });

  it('turns a failing host into an error result and logs it', async () => {
    const { lines, logger } = recordingLogger();
    const tool = createBriefTool({
      onBrief: async () => {
        throw new Error('socket closed');
      },
    });
    const result = await executeTool(tool, { message: 'Done.' }, testContext({ root, logger }));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('could not be delivered (socket closed)');
    expect(lines).toEqual([{ level: 'warn', message: 'brief delivery failed', data: { error: 'socket closed' } }]);
  });

  it('is not run when the call is already cancelled', async () => {
    const briefs: Brief[] = [];
    const tool = createBriefTool({ onBrief: (brief) => void briefs.push(brief) });
    const controller = new AbortController();
    controller.abort();
    const result = await executeTool(tool, { message: 'Late.' }, testContext({ root, signal: controller.signal }));
    expect(result.isError).toBe(true);
    expect(briefs).toEqual([]);
  });

  it('guesses MIME types from the extension', () => {
    expect(guessMimeType('a/B.PNG')).toBe('image/png');
    expect(guessMimeType('notes.md')).toBe('text/markdown');
    expect(guessMimeType('binary.bin')).toBe('application/octet-stream');
    expect(guessMimeType('Makefile')).toBe('application/octet-stream');
  });
});
