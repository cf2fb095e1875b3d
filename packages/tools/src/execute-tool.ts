import { checkToolInputValue, type ToolInputLimits } from '@boxagnts/api';
import type { z } from 'zod';
import type { AnyTool, ToolResult } from './tool.js';
import type { ToolContext } from './tool-context.js';
import { errorResult } from './tool-results.js';

/** Options of {@link executeTool}. */
export interface ExecuteToolOptions {
  /** Bounds on the raw input before it is validated (size and nesting depth). */
  limits?: ToolInputLimits;
  /** Overrides the tool's own `timeoutMs`. */
  timeoutMs?: number;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `- ${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`)
    .join('\n');
}

/**
 * Runs one tool call the way the loop must: input bounded (size, depth) and validated first, the
 * call aborted on the context's signal or the timeout, and every failure (bad input, a throw, a
 * timeout, an abort) turned into an error result the model can read. Never throws.
 */
export async function executeTool(
  tool: AnyTool,
  input: unknown,
  context: ToolContext,
  options: ExecuteToolOptions = {},
): Promise<ToolResult> {
  const bounded = checkToolInputValue(input ?? {}, options.limits);
  if (!bounded.ok) {
    return errorResult(`Invalid input for tool "${tool.name}": ${bounded.error.message}. Send a smaller input.`);
  }
  const parsed = tool.inputSchema.safeParse(bounded.input);
  if (!parsed.success) {
    return errorResult(
      `Invalid input for tool "${tool.name}":\n${describeIssues(parsed.error)}\nFix the input and call the tool again.`,
    );
  }
  const timeoutMs = options.timeoutMs ?? tool.timeoutMs;
  const outer = context.signal;
  if (outer.aborted) return errorResult(`Tool "${tool.name}" was not run: the run was cancelled.`);
  // The call's own signal (the run's, plus this call's timeout) is made only when the tool reads
  // it: most tools never do, and an AbortController per call is a measurable part of a loop turn.
  let controller: AbortController | undefined;
  let timedOut = false;
  const onAbort = () => controller?.abort(outer.reason);
  const callSignal = (): AbortSignal => {
    if (controller === undefined) {
      controller = new AbortController();
      if (timedOut) controller.abort(new Error('timeout'));
      else outer.addEventListener('abort', onAbort, { once: true });
    }
    return controller.signal;
  };
  const callContext = { ...context };
  Object.defineProperty(callContext, 'signal', { get: callSignal, enumerable: true, configurable: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onCancel: (() => void) | undefined;
  const stopped = new Promise<ToolResult>((resolve) => {
    if (timeoutMs !== undefined && timeoutMs > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        controller?.abort(new Error('timeout'));
        resolve(errorResult(`Tool "${tool.name}" timed out after ${timeoutMs} ms and was stopped.`));
      }, timeoutMs);
    }
    onCancel = () => resolve(errorResult(`Tool "${tool.name}" was cancelled.`));
    outer.addEventListener('abort', onCancel, { once: true });
  });
  try {
    const running = tool.execute(parsed.data, callContext).then(
      (result) => result,
      (error: unknown) =>
        errorResult(`Tool "${tool.name}" failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    return await Promise.race([running, stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    outer.removeEventListener('abort', onAbort);
    if (onCancel) outer.removeEventListener('abort', onCancel);
  }
}
