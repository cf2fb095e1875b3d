import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import type { ToolContext } from '../tool-context.js';
import { errorResult, textResult } from '../tool-results.js';

/** A file attached to a brief: where it is and what it is, not its content. */
export interface BriefAttachment {
  /** Absolute path inside the working root. */
  path: string;
  /** The path as the model gave it, relative to the root. */
  relativePath: string;
  mimeType: string;
  sizeBytes: number;
}

/** A status message for the user, as the host receives it. */
export interface Brief {
  message: string;
  attachments: BriefAttachment[];
  sessionId: string;
  turnId: string;
  toolCallId: string;
}

/** Options of {@link createBriefTool}. */
export interface BriefToolOptions {
  /** Shows the brief to the user (a chat line, a notification). Without it, briefs are only logged. */
  onBrief?: (brief: Brief) => void | Promise<void>;
}

const MIME_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.xml': 'application/xml',
  '.log': 'text/plain',
  '.diff': 'text/x-diff',
  '.patch': 'text/x-diff',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
};

/** The MIME type of a file name, from its extension; `application/octet-stream` when unknown. */
export function guessMimeType(fileName: string): string {
  return MIME_TYPES[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

const inputSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1)
    .max(4_000)
    .describe('The status update, short and in plain words: what was done, what is next, or what needs attention.'),
  attachments: z
    .array(
      z.object({
        path: z.string().min(1).describe('A file to point the user to, relative to the working root.'),
        mimeType: z
          .string()
          .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Use a MIME type like "text/markdown" or "image/png".')
          .optional()
          .describe('Its MIME type; guessed from the extension when left out.'),
      }),
    )
    .max(20)
    .optional()
    .describe('Files that go with the message (reports, screenshots, logs); they must exist inside the working root.'),
});

function isOutside(relative: string): boolean {
  return relative.startsWith('..') || path.isAbsolute(relative);
}

async function describeAttachment(
  attachment: { path: string; mimeType?: string | undefined },
  context: ToolContext,
): Promise<BriefAttachment | string> {
  const root = path.resolve(context.root);
  const absolute = path.resolve(root, attachment.path);
  const relative = path.relative(root, absolute);
  const outside = `Attachment "${attachment.path}" is outside the working root; attach files inside it.`;
  if (isOutside(relative)) return outside;
  try {
    // A symlink inside the root may point out of it: check where it really leads.
    if (isOutside(path.relative(await realpath(root), await realpath(absolute)))) return outside;
    const stats = await stat(absolute);
    if (!stats.isFile()) return `Attachment "${attachment.path}" is not a file; attach a file, not a folder.`;
    return {
      path: absolute,
      relativePath: relative.split(path.sep).join('/'),
      mimeType: attachment.mimeType ?? guessMimeType(absolute),
      sizeBytes: stats.size,
    };
  } catch {
    return `Attachment "${attachment.path}" does not exist; check the path (relative to the working root) or leave it out.`;
  }
}

/**
 * Creates the `brief` tool: the model sends the user a short status message, optionally pointing
 * at files (their path, MIME type and size are checked and sent, not their content). The host
 * shows it through `onBrief`; without a host the brief is logged and the call still succeeds.
 *
 * @example
 * const brief = createBriefTool({ onBrief: (b) => ui.notify(b.message, b.attachments) });
 */
export function createBriefTool(options: BriefToolOptions = {}) {
  return defineTool({
    name: 'brief',
    description: [
      'Send the user a short status message while you keep working, optionally with files attached (by path).',
      'Use it for progress on long tasks, a finished milestone, or something the user should look at (a report,',
      'a screenshot). Keep it brief and do not repeat it in your final answer. Do not use it to ask questions',
      '(use ask_user_question) or to deliver your final answer.',
    ].join(' '),
    inputSchema,
    permission: 'read-only',
    execute: async ({ message, attachments = [] }, context) => {
      const described: BriefAttachment[] = [];
      for (const attachment of attachments) {
        const result = await describeAttachment(attachment, context);
        if (typeof result === 'string') return errorResult(`${result} The brief was not sent.`);
        described.push(result);
      }
      const brief: Brief = {
        message,
        attachments: described,
        sessionId: context.sessionId,
        turnId: context.turnId,
        toolCallId: context.toolCallId,
      };
      const metadata = { delivered: options.onBrief !== undefined, attachments: described };
      if (options.onBrief === undefined) {
        context.logger?.info('brief', { message, attachments: described });
      } else {
        try {
          await options.onBrief(brief);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          context.logger?.warn('brief delivery failed', { error: reason });
          return errorResult(
            `The brief could not be delivered (${reason}). Continue the task; mention the update in your answer instead.`,
          );
        }
      }
      const files = described.length === 0 ? '' : ` with ${described.length} attachment(s)`;
      return textResult(`Brief sent to the user${files}.`, metadata);
    },
  });
}

/** The `brief` tool without a host: briefs are logged through `context.logger`. */
export const briefTool = createBriefTool();
