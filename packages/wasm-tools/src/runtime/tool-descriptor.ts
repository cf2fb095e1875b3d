import { z } from 'zod';
import { describeIssues, toolPermissionSchema } from './command-manifest.js';
import { ComponentRuntimeError } from './component-runtime-error.js';

const descriptorSchema = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, "_" or "-"'),
  description: z.string().trim().min(1, 'must not be empty'),
  inputSchema: z.string(),
  permission: toolPermissionSchema,
  env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')),
});

/** A validated `tool-descriptor` from a function component's `describe()`. */
export interface FunctionToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  permission: z.infer<typeof toolPermissionSchema>;
  env: string[];
}

/** Validates what `describe()` returned (it crosses a trust boundary); errors name the component. */
export function parseDescriptors(value: unknown, component: string): FunctionToolDescriptor[] {
  const parsed = z.array(descriptorSchema).min(1, 'must describe at least one tool').safeParse(value);
  if (!parsed.success) {
    throw new ComponentRuntimeError(
      'invalid-descriptor',
      `The describe() result of ${component} is not valid: ${describeIssues(component, parsed.error)}.`,
      { file: component },
    );
  }
  return parsed.data.map((descriptor) => {
    let schema: unknown;
    try {
      schema = JSON.parse(descriptor.inputSchema);
    } catch {
      schema = undefined;
    }
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new ComponentRuntimeError(
        'invalid-descriptor',
        `Tool "${descriptor.name}" of ${component} has an input-schema that is not a JSON object schema.`,
        { file: component },
      );
    }
    const record = schema as Record<string, unknown>;
    if (record.type !== undefined && record.type !== 'object') {
      throw new ComponentRuntimeError(
        'invalid-descriptor',
        `Tool "${descriptor.name}" of ${component} has a ${String(record.type)} input schema; tool inputs must be objects.`,
        { file: component },
      );
    }
    return { ...descriptor, inputSchema: { type: 'object', ...record } };
  });
}
