import { type AnyTool, defineTool, errorResult, type ToolContext, type ToolResult } from '@boxagnts/tools';
import { checkPathSync, type PathPolicy, toGuestPath } from '../policy/path-policy.js';
import type { FileToolSpec } from './file-tool-spec.js';

/** Finds the path policy for a call: a fixed one, or one made for the context's root. */
export type PolicyResolver = (context: ToolContext) => PathPolicy | { error: string };

/**
 * Wraps one tool of the fs-tools component as a host tool: the model sees `spec`'s schema; every
 * path argument goes through the path policy (write access for write/edit) before the guest is
 * called, the guest gets root-relative guest paths (`/src/a.ts`), and the call runs with the
 * policy's root preopened. A refused path is an error result carrying the policy's message.
 */
export function createSandboxedFileTool(spec: FileToolSpec, guest: AnyTool, resolvePolicy: PolicyResolver): AnyTool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    permission: spec.permission,
    execute: async (input: Record<string, unknown>, context: ToolContext): Promise<ToolResult> => {
      const policy = resolvePolicy(context);
      if ('error' in policy) return errorResult(policy.error);
      const guestInput: Record<string, unknown> = { ...input };
      for (const path of spec.paths) {
        const given = input[path.field];
        if (given === undefined && path.optional === true) {
          guestInput[path.field] = '/';
          continue;
        }
        if (typeof given !== 'string') return errorResult(`${path.field} must be a path string.`);
        // Synchronous: a few lstat calls (microseconds) beat a thread-pool round trip per segment.
        const check = checkPathSync(policy, given, path.access);
        if (!check.ok) return errorResult(check.error, { path: given, refusal: check.code });
        guestInput[path.field] = toGuestPath(check.path);
      }
      // Walks (glob, grep) skip what no tool may read; a model cannot set this: the schemas drop unknown keys.
      guestInput.exclude_paths = [...policy.secretPaths];
      return guest.execute(guestInput, { ...context, root: policy.root });
    },
  });
}
