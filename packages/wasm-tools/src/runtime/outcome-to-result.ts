import type { ToolResult, ToolResultContent } from '@boxagnts/tools';
import { errorResult } from '@boxagnts/tools';
import { commandOutputToResult } from './flag-protocol.js';
import type { WorkerOutcome } from './worker-protocol.js';

function parseMetadata(text: string | null): Record<string, unknown> | undefined {
  if (text === null || text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return { value };
  } catch {
    return { raw: text };
  }
}

/** The error result for a call that did not finish normally (exit, trap, deadline, crash, ...). */
export function failureResult(outcome: Extract<WorkerOutcome, { ok: false }>, toolName: string): ToolResult {
  const stderr = 'stderr' in outcome && outcome.stderr.trim() !== '' ? `\n${outcome.stderr.trim()}` : '';
  switch (outcome.kind) {
    case 'exit':
      return errorResult(`Tool "${toolName}" stopped: its component called exit(${outcome.code}).${stderr}`, {
        failure: 'exit',
        exitCode: outcome.code,
      });
    case 'trap':
      return errorResult(`Tool "${toolName}" crashed (a WebAssembly trap): ${outcome.message}${stderr}`, {
        failure: 'trap',
      });
    case 'component-error':
      return errorResult(`Tool "${toolName}" failed: ${outcome.message}${stderr}`, { failure: 'component-error' });
    default:
      return errorResult(`Tool "${toolName}": ${outcome.message}`, { failure: outcome.kind });
  }
}

/** Maps a function component's call outcome to a ToolResult. */
export function functionOutcomeToResult(outcome: WorkerOutcome, toolName: string): ToolResult {
  if (!outcome.ok) return failureResult(outcome, toolName);
  if (!('output' in outcome))
    return errorResult(`Tool "${toolName}": the worker answered with the wrong kind of result.`);
  const output = outcome.output;
  const content: ToolResultContent[] = [];
  if (output.content !== '' || output.images.length === 0) content.push({ type: 'text', text: output.content });
  for (const image of output.images) {
    content.push({ type: 'image', source: { type: 'base64', data: image.data, mediaType: image.mediaType } });
  }
  let metadata = parseMetadata(output.metadata);
  if (outcome.stderr !== '') metadata = { ...metadata, stderr: outcome.stderr };
  return {
    content,
    ...(output.isError ? { isError: true } : {}),
    ...(metadata === undefined ? {} : { metadata }),
  };
}

/** Maps a command tool's call outcome to a ToolResult (the flag protocol's output side). */
export function commandOutcomeToResult(outcome: WorkerOutcome, toolName: string): ToolResult {
  if (!outcome.ok) {
    if (outcome.kind === 'exit') {
      return commandOutputToResult({
        stdout: outcome.stdout,
        stderr: outcome.stderr,
        status: 'exit',
        exitCode: outcome.code,
      });
    }
    return failureResult(outcome, toolName);
  }
  if (!('status' in outcome))
    return errorResult(`Tool "${toolName}": the worker answered with the wrong kind of result.`);
  return commandOutputToResult({ stdout: outcome.stdout, stderr: outcome.stderr, status: outcome.status });
}
