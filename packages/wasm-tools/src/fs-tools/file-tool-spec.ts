import type { ToolPermission } from '@boxagnts/tools';
import type { z } from 'zod';
import type { PathAccess } from '../policy/types.js';

/** One path argument of a file tool, and the access the policy checks it for. */
export interface FileToolPathField {
  /** The input field holding the path (`file_path`, `path`). */
  field: string;
  access: PathAccess;
  /** Absent means the working folder (`.`). */
  optional?: boolean;
}

/**
 * A file tool as the host presents it: the model-facing name, description and zod schema, its
 * permission, and which input fields are paths to run through the path policy before the guest
 * sees them.
 */
export interface FileToolSpec<Schema extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  inputSchema: Schema;
  permission: ToolPermission;
  paths: readonly FileToolPathField[];
}
