import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { ComponentRuntimeError } from './component-runtime-error.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The permission levels a tool can declare. */
export const toolPermissionSchema = z.enum(['read-only', 'write', 'execute', 'network']);

const jsonObjectSchema = z
  .record(z.string(), z.unknown())
  .refine((schema) => schema.type === undefined || schema.type === 'object', {
    message: 'must be an object schema ("type": "object")',
  });

/**
 * The manifest beside a command tool's `.wasm`: `{name, description, input_schema | inputSchema,
 * permission, env?}`. Strict: an unknown field is an error, so typos do not pass silently.
 */
export const commandManifestSchema = z
  .strictObject({
    name: z.string().regex(TOOL_NAME, 'must be 1-64 letters, digits, "_" or "-"'),
    description: z.string().trim().min(1, 'must not be empty: the model chooses tools by it'),
    input_schema: jsonObjectSchema.optional(),
    inputSchema: jsonObjectSchema.optional(),
    permission: toolPermissionSchema,
    env: z.array(z.string().regex(ENV_NAME, 'must be an environment variable name')).optional(),
  })
  .refine((manifest) => (manifest.input_schema === undefined) !== (manifest.inputSchema === undefined), {
    message: 'give exactly one of "input_schema" or "inputSchema"',
    path: ['input_schema'],
  });

/** A validated command-tool manifest. */
export interface CommandManifest {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  permission: z.infer<typeof toolPermissionSchema>;
  env: string[];
}

/** Formats zod issues as `file: field "a.b" message` lines. */
export function describeIssues(file: string, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length === 0 ? '(top level)' : `"${issue.path.map(String).join('.')}"`;
      return `${file}: field ${field} ${issue.message}`;
    })
    .join('; ');
}

/** Validates a manifest object; errors name `file` and each bad field. */
export function parseCommandManifest(value: unknown, file: string): CommandManifest {
  const parsed = commandManifestSchema.safeParse(value);
  if (!parsed.success) {
    throw new ComponentRuntimeError(
      'invalid-manifest',
      `Invalid command-tool manifest: ${describeIssues(file, parsed.error)}.`,
      {
        file,
      },
    );
  }
  const manifest = parsed.data;
  return {
    name: manifest.name,
    description: manifest.description,
    inputSchema: { type: 'object', ...(manifest.input_schema ?? manifest.inputSchema) },
    permission: manifest.permission,
    env: manifest.env ?? [],
  };
}

/**
 * The manifest paths tried for `tool.wasm`, in order: `tool.wasm.json`, then `tool.json`.
 */
export function manifestCandidates(wasmPath: string): string[] {
  const base = basename(wasmPath).replace(/\.wasm$/, '');
  return [`${wasmPath}.json`, join(dirname(wasmPath), `${base}.json`)];
}

/** Reads and validates the manifest beside `wasmPath`, or undefined when there is none. */
export async function readCommandManifest(wasmPath: string): Promise<CommandManifest | undefined> {
  for (const candidate of manifestCandidates(wasmPath)) {
    let text: string;
    try {
      text = await readFile(candidate, 'utf8');
    } catch {
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ComponentRuntimeError(
        'invalid-manifest',
        `${candidate} is not valid JSON (${(error as Error).message}); fix the file.`,
        { file: candidate },
      );
    }
    return parseCommandManifest(value, candidate);
  }
  return undefined;
}
