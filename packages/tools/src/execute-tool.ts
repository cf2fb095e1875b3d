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
  const controller = new AbortController();
  const onAbort = () => controller.abort(context.signal.reason);
  if (context.signal.aborted) return errorResult(`Tool "${tool.name}" was not run: the run was cancelled.`);
  context.signal.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopped = new Promise<ToolResult>((resolve) => {
    if (timeoutMs !== undefined && timeoutMs > 0) {
      timer = setTimeout(() => {
        controller.abort(new Error('timeout'));
        resolve(errorResult(`Tool "${tool.name}" timed out after ${timeoutMs} ms and was stopped.`));
      }, timeoutMs);
    }
    controller.signal.addEventListener(
      'abort',
      () => {
        if (context.signal.aborted) resolve(errorResult(`Tool "${tool.name}" was cancelled.`));
      },
      { once: true },
    );
  });
  try {
    const running = tool.execute(parsed.data, { ...context, signal: controller.signal }).then(
      (result) => result,
      (error: unknown) =>
        errorResult(`Tool "${tool.name}" failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    return await Promise.race([running, stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    context.signal.removeEventListener('abort', onAbort);
  }
}
